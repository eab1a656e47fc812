import { readFile, realpath, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { maxDocumentBytes } from "./resync-from-disk.js";

/** The files outside the workdir a run's language servers pointed to, which `lsp` may read. */
export interface DependencyFiles {
  /** Note a file a server returned as a location. */
  remember(path: string): void;
  /** Whether a server returned this file as a location in this run. */
  has(path: string): boolean;
  /** Whether the path is a source file of a language the server table knows (`.ts`, `.pyi`, `.go`, …). */
  isSource(path: string): boolean;
}

/** Per supervisor, so per run. */
const remembered = new WeakMap<LspSupervisorInstance, Set<string>>();

/** The most outside files a run remembers; past it the oldest are forgotten. */
const maxRemembered = 10_000;

/** The outside files `supervisor`'s servers returned as locations in this run: the only outside files `lsp` reads. */
export function dependencyFiles(supervisor: LspSupervisorInstance): DependencyFiles {
  let files = remembered.get(supervisor);
  if (files === undefined) remembered.set(supervisor, (files = new Set()));
  const set = files;
  const extensions = new Set(supervisor.servers.flatMap((spec) => Object.keys(spec.languages)));
  return {
    remember(path) {
      set.delete(path);
      set.add(path);
      if (set.size > maxRemembered) set.delete(set.values().next().value!);
    },
    has: (path) => set.has(path),
    isSource: (path) => extensions.has(extname(path).toLowerCase()),
  };
}

/**
 * The text of a file outside the workdir a server pointed to (node_modules, site-packages, the Go
 * module cache, the toolchain's sources): read-only, and only a regular source file (by its
 * extension, also after following links — a server pointed at `~/.ssh/id_rsa` gets nothing read) of
 * at most 4 MB; undefined for anything else.
 */
export async function readDependencyFile(path: string, files: DependencyFiles): Promise<string | undefined> {
  if (!files.isSource(path)) return undefined;
  try {
    const real = await realpath(path);
    const stats = await stat(real);
    if (!files.isSource(real) || !stats.isFile() || stats.size > maxDocumentBytes) return undefined;
    return (await readFile(real)).toString("utf8");
  } catch {
    return undefined;
  }
}
