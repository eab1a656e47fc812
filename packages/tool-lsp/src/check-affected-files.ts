import { displayPath, isInside } from "@runbound/tool-kit";
import { pathToFileURL } from "node:url";
import { pullDiagnostics } from "./collect-diagnostics.js";
import type { DiagnosticsDelta } from "./diagnostics-ledger.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { withDeadline } from "./signal-with-deadline.js";

/** How long a push server gets to republish another open file, and the quiet period that settles it. */
const publishWaitMs = 750;
const quietMs = 100;

/** Other files looked at per write. */
export const AFFECTED_PER_WRITE = 5;

/** A file the write did not touch whose diagnostics changed with it (a caller of a changed signature). */
export interface AffectedFile {
  shown: string;
  delta: DiagnosticsDelta;
}

/** Each session's publish generation, taken before a write's files are synced. */
export function generationsOf(sessions: readonly LanguageServerSession[]): Map<LanguageServerSession, number> {
  return new Map(sessions.map((session) => [session, session.published.generation()]));
}

/**
 * Files the run has already seen diagnostics for, open in one of the servers that just checked a
 * written file, and not written themselves: a write often breaks or fixes them (a signature changed,
 * an export renamed). Their current diagnostics are pulled where the server can, else taken from a
 * publish after the write (waited for briefly: a server that does not republish unchanged files costs
 * that wait); only files whose errors and warnings changed are returned.
 */
export async function checkAffectedFiles(supervisor: LspSupervisorInstance, workdir: string, sessions: readonly LanguageServerSession[], generationsBefore: ReadonlyMap<LanguageServerSession, number>, written: ReadonlySet<string>, signal: AbortSignal): Promise<AffectedFile[]> {
  const candidates: Array<{ path: string; uri: string; session: LanguageServerSession }> = [];
  for (const path of supervisor.ledger.files()) {
    if (written.has(path) || candidates.length >= AFFECTED_PER_WRITE) continue;
    const uri = pathToFileURL(path).href;
    const session = sessions.find((candidate) => isInside(candidate.root, path) && candidate.documents.isOpen(uri));
    if (session !== undefined) candidates.push({ path, uri, session });
  }
  const checked = await Promise.all(
    candidates.map(async ({ path, uri, session }): Promise<AffectedFile | undefined> => {
      const pulled = await pullDiagnostics(session, uri, path, signal).catch(() => undefined);
      // A push server republishes its open files after a change (tsserver does, in one batch): wait a little for that.
      const published = pulled === undefined ? await withDeadline(signal, publishWaitMs, (deadline) => session.published.waitFor(uri, generationsBefore.get(session) ?? Infinity, 0, quietMs, deadline)) : undefined;
      const diagnostics = pulled ?? published?.diagnostics;
      if (diagnostics === undefined) return undefined;
      const delta = supervisor.ledger.update(path, diagnostics);
      return delta.introduced.length > 0 || delta.resolved.length > 0 ? { shown: displayPath(workdir, path), delta } : undefined;
    }),
  );
  return checked.filter((file): file is AffectedFile => file !== undefined);
}
