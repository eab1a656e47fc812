/**
 * The packages a Pyodide kernel can install offline: wheels in one local folder, described either by
 * their file names alone or by a `pyodide-lock.json` entry (which also names dependencies). Nothing
 * here touches the network or the file system; the worker hands in the folder's listing and the lock.
 */

/** One installable package. */
export interface OfflinePackage {
  /** The normalized distribution name (PEP 503: lower case, runs of `-_.` as one `-`). */
  name: string;
  version: string;
  /** The wheel's file name inside the package folder. */
  fileName: string;
  /** Normalized names it needs first (from the lock; loose wheels declare none here). */
  depends: string[];
}

/** The subset of a `pyodide-lock.json` this module reads. */
export interface LockFile {
  packages: Record<string, { name: string; version: string; file_name: string; depends?: string[] }>;
}

/** PEP 503 normalization, so `Foo_Bar`, `foo-bar` and `foo.bar` are the same package. */
export function normalizePackageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The name and version a wheel's file name carries, or undefined for a file that is not a wheel. */
export function parseWheelFileName(fileName: string): { name: string; version: string } | undefined {
  // {distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}.whl
  const match = /^([A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?)-([^-]+)(?:-[^-]+)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(
    fileName,
  );
  return match === null ? undefined : { name: normalizePackageName(match[1]!), version: match[2]! };
}

/**
 * The packages of a folder: every lock entry whose wheel is present, then every other wheel by its
 * file name (a lock entry wins over a loose wheel of the same name).
 */
export function indexOfflinePackages(
  fileNames: readonly string[],
  lock: LockFile | undefined,
): Map<string, OfflinePackage> {
  const present = new Set(fileNames);
  const index = new Map<string, OfflinePackage>();
  for (const entry of Object.values(lock?.packages ?? {})) {
    const fileName = entry.file_name.split("/").pop()!;
    if (!present.has(fileName)) continue;
    index.set(normalizePackageName(entry.name), {
      name: normalizePackageName(entry.name),
      version: entry.version,
      fileName,
      depends: (entry.depends ?? []).map(normalizePackageName),
    });
  }
  for (const fileName of [...present].sort()) {
    const wheel = parseWheelFileName(fileName);
    if (wheel === undefined || index.has(wheel.name)) continue;
    index.set(wheel.name, { ...wheel, fileName, depends: [] });
  }
  return index;
}

/** The distribution name of a pip requirement: `Foo[extra]>=1.0; python_version>"3"` → `foo`. */
export function requirementName(requirement: string): string {
  return normalizePackageName(requirement.split(/[\s[<>=!~;@]/, 1)[0]!);
}

function availableList(index: ReadonlyMap<string, OfflinePackage>): string {
  const names = [...index.values()].map((entry) => `${entry.name} ${entry.version}`).sort();
  return names.length === 0 ? "none" : names.join(", ");
}

/**
 * The wheels to unpack, dependencies first, for the requested requirements; each package once.
 * @throws an Error naming the missing package, what is available, and where to put its wheel.
 */
export function planInstall(
  requirements: readonly string[],
  index: ReadonlyMap<string, OfflinePackage>,
  folder: string | undefined,
): OfflinePackage[] {
  const plan: OfflinePackage[] = [];
  // Lock files can hold dependency cycles; a package being visited counts as planned.
  const seen = new Set<string>();
  const visit = (name: string, neededBy: string | undefined): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const entry = index.get(name);
    if (entry === undefined) {
      const wanted = neededBy === undefined ? `\`${name}\`` : `\`${name}\` (needed by \`${neededBy}\`)`;
      const where =
        folder === undefined
          ? "this kernel was started without a package directory; start it with one that holds the wheel"
          : `put its Pyodide wheel in \`${folder}\``;
      throw new Error(
        `The package ${wanted} is not available offline: the Pyodide kernel never downloads packages. Available: ${availableList(index)}. To install it, ${where}.`,
      );
    }
    for (const dependency of entry.depends) visit(dependency, name);
    plan.push(entry);
  };
  for (const requirement of requirements) visit(requirementName(requirement), undefined);
  return plan;
}
