import { delimiter, isAbsolute, join } from "node:path";
import { isExecutableFile } from "@runbound/process-kit";
import { directoriesUpTo } from "./find-nearest-marker.js";
import { missingRustupComponent } from "./rustup-proxy.js";

/** Where project-local programs live, relative to a project directory, searched before PATH. */
export const PROJECT_BIN_DIRECTORIES = ["node_modules/.bin", ".venv/bin", "venv/bin"] as const;

/** A program that exists but cannot run, and why (a sentence without the final period). */
export interface UnusableProgram {
  /** Where it is. */
  path: string;
  /** Why it cannot run, e.g. a rustup proxy without the component. */
  reason: string;
}

/**
 * The outcome of {@link resolveBinary}: the program found, or every place that was searched and the
 * programs met there that exist but cannot run (`unusable`, present only when there are some).
 */
export type BinaryResolution = { found: true; path: string } | { found: false; looked: string[]; unusable?: UnusableProgram[] };

/** The unusable programs of a resolution as one part of a sentence. */
export function describeUnusable(unusable: readonly UnusableProgram[]): string {
  return unusable.map((program) => program.reason).join("; ");
}

/**
 * Find a server's program: project-local first (each directory from the project root up to the
 * workdir, in {@link PROJECT_BIN_DIRECTORIES}, so a monorepo's hoisted `node_modules/.bin` counts),
 * then every entry of `pathVariable`. A relative PATH entry is ignored: it would depend on the cwd.
 * A program that exists but cannot run (a rustup proxy for a component no toolchain has) is
 * passed over, so a usable one later on PATH still wins; `env` locates rustup's toolchains.
 */
export async function resolveBinary(command: string, root: string, workdir: string, pathVariable: string, env: NodeJS.ProcessEnv = process.env): Promise<BinaryResolution> {
  // Every place is named in `looked` as messages show it: the directory, or the absolute command itself.
  const places = isAbsolute(command)
    ? [{ place: command, path: command }]
    : // A directory listed twice (PATH often is) is searched, and named, once.
      [...new Set([...directoriesUpTo(root, workdir).flatMap((directory) => PROJECT_BIN_DIRECTORIES.map((bin) => join(directory, bin))), ...pathVariable.split(delimiter).filter((entry) => isAbsolute(entry))])].map((directory) => ({
        place: directory,
        path: join(directory, command),
      }));
  const looked: string[] = [];
  const unusable: UnusableProgram[] = [];
  for (const { place, path } of places) {
    looked.push(place);
    if (!(await isExecutableFile(path))) continue;
    const reason = await missingRustupComponent(path, env);
    if (reason === undefined) return { found: true, path };
    unusable.push({ path, reason });
  }
  return unusable.length === 0 ? { found: false, looked } : { found: false, looked, unusable };
}
