import { isInside } from "@runbound/runtime-kit";
import { sep } from "node:path";
import { pathToFileURL } from "node:url";
import { eachWithin } from "./each-within.js";
import type { LanguageServerSession } from "./language-server-session.js";

/** Files looked at per write: a file every module imports must not turn one write into a whole-project check. */
export const MAX_IMPORTERS = 200;
/** How long a search's answer is reused: the server may also learn of changes on disk by itself. */
const reuseForMs = 60_000;

interface CachedSearch {
  key: string;
  mark: number;
  at: number;
  result: Importers;
}

/** Per server, the last search: asking every importer again costs the server a request per file. */
const lastSearch = new WeakMap<LanguageServerSession, CachedSearch>();

/**
 * The last search for the same files, while it still holds: the server was told of no change to any
 * file but the written ones since (a change to a written file does not change who imports it, and the
 * search never goes through a written file again).
 */
function reusable(session: LanguageServerSession, key: string, written: readonly string[]): Importers | undefined {
  const cached = lastSearch.get(session);
  if (cached === undefined || cached.key !== key || Date.now() - cached.at > reuseForMs) return undefined;
  const changed = session.documents.changedSince(cached.mark);
  const writtenUris = new Set(written.map((path) => pathToFileURL(path).href));
  if (changed === undefined || changed.some((uri) => !writtenUris.has(uri))) return undefined;
  return cached.result;
}

/** The files that import the written ones, nearest first, and whether the search was cut short. */
export interface Importers {
  /** Absolute paths inside the workdir, direct importers before indirect ones. */
  files: string[];
  /** False when the search stopped at {@link MAX_IMPORTERS} or the server could not say for some file. */
  complete: boolean;
}

function isProjectFile(workdir: string, path: string): boolean {
  return isInside(workdir, path) && !path.split(sep).includes("node_modules");
}

/**
 * Who imports `written`, directly or through other files, breadth first, as the server's
 * `importersOf` says: a changed export can break a file two imports away (a type re-exported, a
 * value whose inferred type changed), and the project's checker reports those too.
 */
export async function transitiveImporters(
  session: LanguageServerSession,
  written: readonly string[],
  workdir: string,
  signal: AbortSignal,
): Promise<Importers> {
  const importersOf = session.spec.importersOf;
  if (importersOf === undefined) return { files: [], complete: false };
  const key = [...written].sort().join("\u0000");
  const reused = reusable(session, key, written);
  if (reused !== undefined) return { files: [...reused.files], complete: reused.complete };
  const mark = session.documents.changeMark;
  const result = await searchImporters(session, importersOf, written, workdir, signal);
  if (!signal.aborted) lastSearch.set(session, { key, mark, at: Date.now(), result });
  return { files: [...result.files], complete: result.complete };
}

async function searchImporters(
  session: LanguageServerSession,
  importersOf: NonNullable<LanguageServerSession["spec"]["importersOf"]>,
  written: readonly string[],
  workdir: string,
  signal: AbortSignal,
): Promise<Importers> {
  const seen = new Set(written);
  const files: string[] = [];
  let frontier = [...written];
  let complete = true;
  while (frontier.length > 0 && !signal.aborted) {
    const next: string[] = [];
    const answers: Array<string[] | undefined> = [];
    await eachWithin(frontier, signal, async (path) => {
      answers.push(await importersOf(session, path, signal).catch(() => undefined));
    });
    for (const importers of answers) {
      if (importers === undefined) complete = false;
      for (const importer of importers ?? []) {
        if (seen.has(importer) || !isProjectFile(workdir, importer)) continue;
        seen.add(importer);
        if (files.length >= MAX_IMPORTERS) return { files, complete: false };
        files.push(importer);
        next.push(importer);
      }
    }
    frontier = next;
  }
  return { files, complete: complete && !signal.aborted };
}
