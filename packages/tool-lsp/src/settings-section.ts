/**
 * The value under a dotted section (`python.analysis`) of a server's settings, for
 * `workspace/configuration`; the whole object for no section, and `null` — "no setting", which every
 * server accepts — when it is absent.
 */
export function settingsSection(
  settings: Readonly<Record<string, unknown>> | undefined,
  section: string | undefined,
): unknown {
  if (settings === undefined) return null;
  if (section === undefined || section === "") return settings;
  let value: unknown = settings;
  for (const key of section.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
