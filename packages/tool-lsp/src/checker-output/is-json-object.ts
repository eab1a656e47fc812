/** Whether a parsed JSON value is an object (or array) whose fields may be read. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
