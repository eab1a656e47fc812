import { displayPath, findNearestMarker } from "@runbound/runtime-kit";
import { dirname, extname } from "node:path";
import { describeUntrusted, TRUSTED_PROJECT, type ProjectTrust } from "./project-trust.js";
import { describeUnusable, resolveBinary, type UnusableProgram, type UntrustedPrograms } from "./resolve-binary.js";
import type { LspServerSpec } from "./server-spec.js";

/**
 * Which server would answer for a file, and if none, exactly why: no server for the extension, no
 * root marker above the file, or a root but no program. Starts nothing.
 */
export type FileRoute =
  | { kind: "no_server"; extension: string }
  | { kind: "no_root"; spec: LspServerSpec; searched: string }
  | {
      kind: "no_binary";
      spec: LspServerSpec;
      root: string;
      marker: string;
      looked: string[];
      unusable?: UnusableProgram[];
      untrusted?: UntrustedPrograms;
    }
  | {
      kind: "ready";
      spec: LspServerSpec;
      root: string;
      marker: string;
      binary: string;
      languageId: string;
      untrusted?: UntrustedPrograms;
    };

/** The server whose table entry covers `file`'s extension. */
export function serverForFile(
  servers: readonly LspServerSpec[],
  file: string,
): { spec: LspServerSpec; languageId: string } | undefined {
  const extension = extname(file).toLowerCase();
  for (const spec of servers) {
    const languageId = spec.languages[extension];
    if (languageId !== undefined) return { spec, languageId };
  }
  return undefined;
}

/**
 * Route `file` (absolute, inside `workdir`) to a server and root; see {@link FileRoute}. `env` is the
 * servers' environment and `trust` says whether the project's own programs may run (see {@link resolveBinary}).
 */
export async function routeFile(
  servers: readonly LspServerSpec[],
  workdir: string,
  file: string,
  pathVariable: string,
  env: NodeJS.ProcessEnv = process.env,
  trust: ProjectTrust = TRUSTED_PROJECT,
): Promise<FileRoute> {
  const match = serverForFile(servers, file);
  if (match === undefined) return { kind: "no_server", extension: extname(file) };
  const found = await findNearestMarker(dirname(file), workdir, match.spec.rootMarkers);
  if (found === undefined) return { kind: "no_root", spec: match.spec, searched: displayPath(workdir, dirname(file)) };
  const binary = await resolveBinary(match.spec.server.command, found.directory, workdir, pathVariable, env, trust);
  const untrusted = binary.untrusted === undefined ? {} : { untrusted: binary.untrusted };
  if (!binary.found)
    return {
      kind: "no_binary",
      spec: match.spec,
      root: found.directory,
      marker: found.name,
      looked: binary.looked,
      unusable: binary.unusable,
      ...untrusted,
    };
  return {
    kind: "ready",
    spec: match.spec,
    root: found.directory,
    marker: found.name,
    binary: binary.path,
    languageId: match.languageId,
    ...untrusted,
  };
}

function list(items: readonly string[], limit: number): string {
  const shown = items.slice(0, limit).map((item) => `\`${item}\``);
  return items.length > limit ? `${shown.join(", ")} and ${items.length - limit} more` : shown.join(", ");
}

/** Why a route that is not `ready` has no server, as a sentence with the way out. */
export function describeUnroutable(
  route: Exclude<FileRoute, { kind: "ready" }>,
  workdir: string,
  shownFile: string,
  servers: readonly LspServerSpec[],
): string {
  switch (route.kind) {
    case "no_server": {
      const known = [...new Set(servers.flatMap((spec) => Object.keys(spec.languages)))];
      return `No language server handles \`${route.extension || shownFile}\` files. Known extensions: ${list(known, 40)}.`;
    }
    case "no_root":
      return `No root marker for \`${route.spec.id}\`: none of ${list(route.spec.rootMarkers.flat(), 10)} exists in \`${route.searched}\` or any directory above it up to the working directory, so no server starts for \`${shownFile}\`. Create the project's marker file (e.g. \`${route.spec.rootMarkers[0]![0]}\`) at its root.`;
    case "no_binary": {
      const where = `the \`${route.spec.id}\` server's program \`${route.spec.server.command}\` (for root \`${displayPath(workdir, route.root)}\`, marker \`${route.marker}\`)`;
      const untrusted =
        route.untrusted === undefined
          ? ""
          : ` Also, ${describeUntrusted(route.untrusted.paths, route.untrusted.trust, (path) => displayPath(workdir, path))}.`;
      if (route.unusable !== undefined) {
        return `Binary not found: ${where} cannot run: ${describeUnusable(route.unusable)}; nothing else usable in the ${route.looked.length} places searched.${untrusted} Install it: ${route.spec.install}.`;
      }
      if (route.untrusted !== undefined) {
        return `Binary not found: ${where} is not on PATH, and ${describeUntrusted(route.untrusted.paths, route.untrusted.trust, (path) => displayPath(workdir, path))}, or install the server outside the project, on PATH.`;
      }
      return `Binary not found: ${where} is in none of ${list(route.looked, 12)}. Install it: ${route.spec.install}.`;
    }
  }
}
