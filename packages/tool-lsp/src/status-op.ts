import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance, ServerEntryStatus } from "./lsp-supervisor.js";
import { unsupportedOps } from "./op-capabilities.js";
import type { OpAnswer } from "./op-types.js";
import { describeUntrusted, howToTrust } from "./project-trust.js";
import { displayPath, PROJECT_BIN_DIRECTORIES, resolveInWorkdir } from "@runbound/runtime-kit";
import { describeUnusable, type BinaryResolution, type UntrustedPrograms } from "./resolve-binary.js";
import { describeUnroutable } from "./route-file.js";
import type { LspServerSpec } from "./server-spec.js";

/** The clause about project programs passed over as untrusted, or nothing when there were none. */
function untrustedClause(untrusted: UntrustedPrograms | undefined, workdir: string): string {
  return untrusted === undefined
    ? ""
    : ` (${describeUntrusted(untrusted.paths, untrusted.trust, (path) => displayPath(workdir, path))})`;
}

function notFoundLine(
  spec: LspServerSpec,
  program: Extract<BinaryResolution, { found: false }>,
  workdir: string,
  trusted: boolean,
): string {
  if (program.unusable !== undefined)
    return `- ${spec.id}: binary not found — \`${spec.server.command}\` cannot run: ${describeUnusable(program.unusable)}${untrustedClause(program.untrusted, workdir)}. Install: ${spec.install}.`;
  if (program.untrusted !== undefined)
    return `- ${spec.id}: binary not found — \`${spec.server.command}\` is not on PATH${untrustedClause(program.untrusted, workdir)}. Or install it outside the project, on PATH.`;
  if (!trusted)
    return `- ${spec.id}: binary not found — \`${spec.server.command}\` is not on PATH (${program.looked.length} places searched; project programs are not trusted, see below). Install: ${spec.install}.`;
  return `- ${spec.id}: binary not found — \`${spec.server.command}\` is not in the workdir's ${PROJECT_BIN_DIRECTORIES.join(", ")} nor on PATH (${program.looked.length} places searched; a project below may still have its own). Install: ${spec.install}.`;
}

function entryLine(entry: ServerEntryStatus, sessions: readonly LanguageServerSession[]): string {
  const session = sessions.find(
    (candidate) => candidate.spec.id === entry.server && candidate.shownRoot === entry.root,
  );
  const { undeclared, refused } = session === undefined ? { undeclared: [], refused: [] } : unsupportedOps(session);
  const listed = (ops: readonly string[]): string => ops.map((op) => `\`${op}\``).join(", ");
  const lacks = `${undeclared.length === 0 ? "" : ` Lacks ${listed(undeclared)} (not in its capabilities).`}${refused.length === 0 ? "" : ` Answered ${listed(refused)} with "method not found".`}`;
  return `- ${entry.server} @ ${entry.root}: ${entry.state} — ${entry.detail}${lacks}`;
}

/**
 * Answer `status`: every server of the table with its state per root, or, for one `file`, which
 * server and root it maps to and why nothing would start. Never starts anything.
 */
export async function statusOp(
  supervisor: LspSupervisorInstance,
  workdir: string,
  file: string | undefined,
): Promise<OpAnswer> {
  const entries = await supervisor.entries(workdir);
  if (file !== undefined) {
    const path = await resolveInWorkdir(workdir, file);
    const shown = displayPath(workdir, path);
    const route = await supervisor.route(workdir, path);
    if (route.kind !== "ready") {
      const state =
        route.kind === "no_root" ? "no root marker" : route.kind === "no_binary" ? "binary not found" : "no server";
      return {
        text: `${shown}: ${state}. ${describeUnroutable(route, workdir, shown, supervisor.servers)}`,
        structured: { op: "status", file: shown, state },
      };
    }
    const root = displayPath(workdir, route.root);
    const entry = entries.find((candidate) => candidate.server === route.spec.id && candidate.root === root);
    const where = `\`${route.spec.id}\` for root \`${root}\` (marker \`${route.marker}\`), program \`${route.binary}\`${untrustedClause(route.untrusted, workdir)}`;
    if (entry === undefined)
      return {
        text: `${shown}: not started — ${where}; it starts on the first query of a file under that root.`,
        structured: { op: "status", file: shown, state: "not started" },
      };
    return {
      text: `${shown}: ${where}.\n${entryLine(entry, supervisor.running())}`,
      structured: { op: "status", file: shown, state: entry.state, entry },
    };
  }
  const lines: string[] = [];
  const untrusted: string[] = [];
  for (const spec of supervisor.servers) {
    const own = entries.filter((entry) => entry.server === spec.id);
    if (own.length > 0) {
      lines.push(...own.map((entry) => entryLine(entry, supervisor.running())));
      continue;
    }
    const program = await supervisor.findProgram(spec, workdir, workdir);
    const extensions = Object.keys(spec.languages).join(" ");
    lines.push(
      program.found
        ? `- ${spec.id}: not started — program \`${program.path}\`${untrustedClause(program.untrusted, workdir)}; starts for ${extensions} files under a root with ${spec.rootMarkers
            .flat()
            .map((marker) => `\`${marker}\``)
            .join(", ")}.`
        : notFoundLine(spec, program, workdir, supervisor.projectTrust.trusted),
    );
    for (const path of program.untrusted?.paths ?? []) untrusted.push(displayPath(workdir, path));
  }
  const trust = supervisor.projectTrust.trusted
    ? ""
    : `\nProject programs are not trusted in this run: none inside the working directory (${PROJECT_BIN_DIRECTORIES.join(", ")}, PATH entries pointing into it) is started, for servers or checkers; PATH's are used instead. Passed over at the top of the working directory: ${untrusted.length === 0 ? "none" : untrusted.map((path) => `\`${path}\``).join(", ")}. To trust the project, ${howToTrust(supervisor.projectTrust)}.`;
  const placement =
    supervisor.placement.kind === "sandbox"
      ? `\nServers and project checkers run ${supervisor.placement.describe()}.`
      : "";
  return {
    text: `Language servers (${supervisor.servers.length} known; \`status\` with \`file\` says what one file would use):\n${lines.join("\n")}${trust}${placement}`,
    structured: {
      op: "status",
      entries,
      projectTrusted: supervisor.projectTrust.trusted,
      ...(supervisor.projectTrust.trusted ? {} : { untrusted }),
    },
  };
}
