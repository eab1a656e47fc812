import { isAbsolute, join } from "node:path";
import { isExecutableFile, programDirectories } from "@runbound/runtime-kit";
import { isInsideWorkdir, TRUSTED_PROJECT, type ProjectTrust } from "./project-trust.js";
import { missingRustupComponent } from "./rustup-proxy.js";

/** A program that exists but cannot run, and why (a sentence without the final period). */
export interface UnusableProgram {
  /** Where it is. */
  path: string;
  /** Why it cannot run, e.g. a rustup proxy without the component. */
  reason: string;
}

/** Project programs passed over because the project is not trusted, and how to trust it. */
export interface UntrustedPrograms {
  /** Where they are (absolute). */
  paths: string[];
  /** The run's trust, for the way out in messages. */
  trust: ProjectTrust;
}

/**
 * The outcome of {@link resolveBinary}: the program found, or every place that was searched and the
 * programs met there that exist but cannot run (`unusable`, present only when there are some). Either
 * way `untrusted` names the project's own programs it did not use because the project is not trusted
 * (present only when there are some).
 */
export type BinaryResolution =
  | { found: true; path: string; untrusted?: UntrustedPrograms }
  | { found: false; looked: string[]; unusable?: UnusableProgram[]; untrusted?: UntrustedPrograms };

/** The unusable programs of a resolution as one part of a sentence. */
export function describeUnusable(unusable: readonly UnusableProgram[]): string {
  return unusable.map((program) => program.reason).join("; ");
}

/**
 * Find a server's program: project-local first (each directory from the project root up to the
 * workdir, in runtime-kit's `PROJECT_BIN_DIRECTORIES`, so a monorepo's hoisted `node_modules/.bin` counts),
 * then every entry of `pathVariable`. A relative PATH entry is ignored: it would depend on the cwd.
 * A program that exists but cannot run (a rustup proxy for a component no toolchain has) is
 * passed over, so a usable one later on PATH still wins; `env` locates rustup's toolchains. When
 * `trust` says the project is not trusted, no program inside the workdir is used (the project's bin
 * directories, and PATH entries that point into the workdir, as a shell inside an activated `.venv`
 * has): the ones that exist are named in `untrusted`.
 */
export async function resolveBinary(
  command: string,
  root: string,
  workdir: string,
  pathVariable: string,
  env: NodeJS.ProcessEnv = process.env,
  trust: ProjectTrust = TRUSTED_PROJECT,
): Promise<BinaryResolution> {
  // Every place is named in `looked` as messages show it: the directory, or the absolute command itself.
  const places = isAbsolute(command)
    ? [{ place: command, path: command }]
    : // A directory listed twice (PATH often is) is searched, and named, once.
      programDirectories({ projectRoot: root, workdir, pathVariable }).map((directory) => ({
        place: directory,
        path: join(directory, command),
      }));
  const looked: string[] = [];
  const unusable: UnusableProgram[] = [];
  const untrustedPaths: string[] = [];
  // An absolute command is the host's own configuration, not something the project chose.
  const projectLocal = (place: string): boolean => !isAbsolute(command) && isInsideWorkdir(place, workdir);
  const untrusted = (): { untrusted?: UntrustedPrograms } =>
    untrustedPaths.length === 0 ? {} : { untrusted: { paths: untrustedPaths, trust } };
  for (const { place, path } of places) {
    looked.push(place);
    if (!(await isExecutableFile(path))) continue;
    if (!trust.trusted && projectLocal(place)) {
      untrustedPaths.push(path);
      continue;
    }
    const reason = await missingRustupComponent(path, env);
    if (reason === undefined) return { found: true, path, ...untrusted() };
    unusable.push({ path, reason });
  }
  return { found: false, looked, ...(unusable.length === 0 ? {} : { unusable }), ...untrusted() };
}
