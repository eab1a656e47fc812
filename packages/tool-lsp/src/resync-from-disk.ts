import { readFileInWorkdir } from "@runbound/runtime-kit";
import { FileChangeType } from "vscode-languageserver-protocol";
import { readDiskStamp, sameStamp } from "./disk-stamp.js";
import type { DocumentSync, OpenEntry } from "./document-sync.js";

/** Files bigger than this are not sent to a server (a generated bundle, a data file); the same bound as opening one. */
export const maxDocumentBytes = 4 * 1024 * 1024;

/** What one re-sync did, by document URI. */
export interface ResyncReport {
  /** Open documents looked at. */
  checked: number;
  /** Re-sent with the file's new text (didChange). */
  changed: string[];
  /** Closed because the file is gone, or can no longer be read as a document. */
  closed: string[];
}

type Outcome = "same" | "changed" | "closed";

async function resyncOne(documents: DocumentSync, workdir: string, entry: OpenEntry): Promise<Outcome> {
  const stamp = await readDiskStamp(entry.path);
  if (stamp !== null && sameStamp(entry.stamp, stamp)) return "same";
  let text: string | null = null;
  if (stamp !== null) {
    // Read through tool-kit like openDocument: a directory swapped for a link since cannot make it read outside the workdir.
    const bytes = await readFileInWorkdir(workdir, entry.path, { maxBytes: maxDocumentBytes }).catch(() => undefined);
    if (bytes === undefined) {
      // Unreadable as a document now (grown past the bound, permissions): the server reads the file itself once it is closed.
      documents.close(entry.uri);
      documents.filesChanged([{ uri: entry.uri, type: FileChangeType.Changed }]);
      return "closed";
    }
    text = bytes === null ? null : bytes.toString("utf8");
  }
  if (text === null) {
    documents.close(entry.uri);
    documents.filesChanged([{ uri: entry.uri, type: FileChangeType.Deleted }]);
    return "closed";
  }
  return documents.sync(entry.path, text, entry.languageId, stamp!).changed ? "changed" : "same";
}

/**
 * Make every document a server has open equal to its file on disk again, whoever changed the file (a
 * shell command, `git checkout`, another program): a server answers from the text it was sent, so a
 * stale one renames a declaration and none of its uses (issue 21). One stat per open document; the
 * file is read only when its stamp differs from the one taken when its text was last read. A changed
 * file is re-sent (didChange), a missing one closed (didClose, then `didChangeWatchedFiles` Deleted).
 * `except` is a document the caller syncs itself right after.
 */
export async function resyncFromDisk(documents: DocumentSync, workdir: string, except?: string): Promise<ResyncReport> {
  const entries = documents.openDocuments().filter((entry) => entry.uri !== except);
  const outcomes = await Promise.all(entries.map((entry) => resyncOne(documents, workdir, entry)));
  const report: ResyncReport = { checked: entries.length, changed: [], closed: [] };
  outcomes.forEach((outcome, index) => {
    if (outcome !== "same") report[outcome].push(entries[index]!.uri);
  });
  return report;
}
