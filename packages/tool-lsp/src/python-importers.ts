import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { maxDocumentBytes } from "./resync-from-disk.js";
import type { SessionRequests } from "./session-requests.js";

/** Files read per root at most: a scan must stay a fraction of a write's answer. */
const MAX_SCANNED_FILES = 5_000;
/** Directories that hold no project code, or someone else's. */
const skippedDirectories = new Set([
  "node_modules",
  "__pycache__",
  "site-packages",
  "dist-packages",
  "build",
  "dist",
  "venv",
]);

interface ScannedFile {
  mtimeMs: number;
  size: number;
  /** The dotted modules the file imports (relative imports resolved), each `from X import a` as X and X.a. */
  imports: Set<string>;
}

const scans = new WeakMap<SessionRequests, Map<string, ScannedFile>>();
const fromImport = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#\\]*(?:\\\n[^\n#\\]*)*)/gm;
const plainImport = /^[ \t]*import[ \t]+([^\n#;]+)/gm;

/** The dotted package a directory is, by its `__init__.py` files up to the first directory without one. */
async function packageOf(directory: string, cache: Map<string, string[]>): Promise<string[]> {
  const known = cache.get(directory);
  if (known !== undefined) return known;
  const isPackage = await stat(join(directory, "__init__.py")).then(
    (found) => found.isFile(),
    () => false,
  );
  const parts =
    isPackage && dirname(directory) !== directory
      ? [...(await packageOf(dirname(directory), cache)), basename(directory)]
      : [];
  cache.set(directory, parts);
  return parts;
}

/** The dotted module a Python file is (`pkg.sub.mod`, `pkg.sub` for its `__init__.py`). */
async function moduleOf(path: string, cache: Map<string, string[]>): Promise<string> {
  const parts = await packageOf(dirname(path), cache);
  const stem = basename(path).replace(/\.pyi?$/, "");
  return (stem === "__init__" ? parts : [...parts, stem]).join(".");
}

function names(list: string): string[] {
  return list
    .replace(/[()\\]/g, " ")
    .split(",")
    .map((item) =>
      item
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim(),
    )
    .filter((name) => /^[\w.]+$/.test(name));
}

/** What a file imports, as dotted modules; relative imports are resolved against its own package. */
function importsOf(text: string, ownPackage: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(fromImport)) {
    const level = match[1]!.length;
    if (level > ownPackage.length + 1) continue;
    const base =
      level === 0
        ? match[2]!
        : [...ownPackage.slice(0, ownPackage.length - (level - 1)), ...(match[2] === "" ? [] : [match[2]!])].join(".");
    if (base === "") continue;
    found.add(base);
    for (const name of names(match[3]!)) found.add(`${base}.${name}`);
  }
  for (const match of text.matchAll(plainImport)) for (const name of names(match[1]!)) found.add(name);
  return found;
}

async function pythonFiles(root: string, signal: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const pending = [root];
  while (pending.length > 0 && files.length < MAX_SCANNED_FILES && !signal.aborted) {
    const directory = pending.pop()!;
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith(".") || skippedDirectories.has(entry.name)) continue;
      if (entry.isDirectory()) pending.push(join(directory, entry.name));
      else if (entry.isFile() && /\.pyi?$/.test(entry.name)) files.push(join(directory, entry.name));
    }
  }
  return files;
}

/**
 * The Python files under the server's root that import `path`'s module (`import m`, `from m import
 * x`, `from pkg import m`, relative forms), read from the files' import statements — pyright can say
 * which files a change makes it re-check, but only after re-checking all of them, which on a large
 * package takes longer than a write's answer may: these are the callers to ask about first. Files
 * are re-read only when their size or mtime changed. @returns `undefined` for a file outside any
 * package layout the scan understands (no dotted module name).
 */
export async function pythonImporters(
  session: SessionRequests,
  path: string,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  const packages = new Map<string, string[]>();
  const module = await moduleOf(path, packages);
  if (module === "") return undefined;
  let scanned = scans.get(session);
  if (scanned === undefined) {
    scanned = new Map();
    scans.set(session, scanned);
  }
  const importers: string[] = [];
  for (const file of await pythonFiles(session.root, signal)) {
    if (signal.aborted) break;
    if (file === path) continue;
    const stats = await stat(file).catch(() => undefined);
    // A file too large to be a document (generated data) is not read for its imports.
    if (stats === undefined || stats.size > maxDocumentBytes) continue;
    let entry = scanned.get(file);
    if (entry === undefined || entry.mtimeMs !== stats.mtimeMs || entry.size !== stats.size) {
      const text = await readFile(file, "utf8").catch(() => "");
      entry = {
        mtimeMs: stats.mtimeMs,
        size: stats.size,
        imports: importsOf(text, await packageOf(dirname(file), packages)),
      };
      scanned.set(file, entry);
    }
    if (entry.imports.has(module)) importers.push(file);
  }
  return importers;
}
