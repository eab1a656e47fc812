import { isInside } from "@runbound/runtime-kit";
import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { pullDiagnostics } from "./collect-diagnostics.js";
import { eachWithin } from "./each-within.js";
import type { LanguageServerSession } from "./language-server-session.js";
import { maxDocumentBytes } from "./resync-from-disk.js";
import type { PublishedSet } from "./published-diagnostics.js";

/**
 * Importers asked about per write at most: enough for the callers of a module most of a package
 * uses; the wait for them is bounded anyway, and the rest come from the server's own re-check.
 */
export const IMPORTERS_FIRST_LIMIT = 40;

/**
 * For a server that re-checks a change's dependents by itself in its own order (pyright in
 * `workspace` mode goes through every transitive dependent of a core module, which on a large
 * package takes longer than a write's answer may wait, and reports a file once when it is bound
 * and again when it is checked): the files to ask about one by one right after the write, where a
 * changed signature breaks its callers. These are the written files' direct importers, and the
 * importers of a package `__init__` that re-exports them (`from pkg import name` reaches the module
 * through it). Only files the server already reported on are taken: one it does not check (outside
 * its `include`) would get errors the project's checker never shows.
 */
export async function importersToAskFirst(
  session: LanguageServerSession,
  written: readonly string[],
  reported: ReadonlyMap<string, PublishedSet>,
  signal: AbortSignal,
): Promise<string[]> {
  const importersOf = session.spec.importersOf;
  if (importersOf === undefined) return [];
  const seen = new Set(written);
  const chosen: string[] = [];
  let frontier = [...written];
  while (frontier.length > 0 && chosen.length < IMPORTERS_FIRST_LIMIT && !signal.aborted) {
    const next: string[] = [];
    for (const path of frontier) {
      for (const importer of (await importersOf(session, path, signal).catch(() => undefined)) ?? []) {
        if (seen.has(importer) || !isInside(session.root, importer)) continue;
        seen.add(importer);
        if (!reported.has(pathToFileURL(importer).href)) continue;
        if (chosen.length < IMPORTERS_FIRST_LIMIT) chosen.push(importer);
        // A package's __init__ re-exports what it imports: its own importers reach the written module too.
        if (basename(importer, extname(importer)) === "__init__") next.push(importer);
      }
    }
    frontier = next;
  }
  return chosen;
}

const identifier = /[A-Za-z_][A-Za-z0-9_]{2,}/g;
/** A declaration's name: `def f`, `class C`, `function f`, `interface I`, `type T`, `const x`, `func F`, or `X = …` at a line's start. */
const declaration =
  /\b(?:def|class|function|interface|type|enum|const|let|var|struct|func)\s+([A-Za-z_][A-Za-z0-9_]*)|^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/gm;

/** The names a change touched: on the lines that differ between the two texts, every identifier, and the names they declare. */
export function changedNames(before: string, after: string): { names: Set<string>; declared: Set<string> } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end += 1;
  const lines = (text: string): string => {
    const from = text.lastIndexOf("\n", start - 1) + 1;
    const to = text.indexOf("\n", text.length - end);
    return text.slice(from, to === -1 ? text.length : to);
  };
  const names = new Set<string>();
  const declared = new Set<string>();
  if (before === after) return { names, declared };
  for (const text of [before, after]) {
    const changed = lines(text);
    for (const match of changed.matchAll(identifier)) names.add(match[0]);
    for (const match of changed.matchAll(declaration)) declared.add((match[1] ?? match[2])!);
  }
  return { names, declared };
}

/** A file's text and size, or "" when it cannot be read or is too large to be a document. */
async function readBounded(path: string): Promise<{ text: string; bytes: number }> {
  const bytes = await stat(path).then(
    (found) => found.size,
    () => Number.POSITIVE_INFINITY,
  );
  if (bytes > maxDocumentBytes) return { text: "", bytes: 0 };
  return { text: await readFile(path, "utf8").catch(() => ""), bytes };
}

/** Which importers to ask about, and which to leave to the server's own re-check. */
export interface RankedImporters {
  ask: string[];
  /** Importers that mention none of the names the write changed. */
  leave: string[];
  /** Each importer's size, which sizes the wait for the asks. */
  bytes: ReadonlyMap<string, number>;
}

/**
 * Split the importers by the changed names they mention: those that mention a name the write
 * declared, or one that at most half of them mention (a name every importer has, `str` or `def`,
 * says nothing), use what changed and are asked about; the rest are left to the server's own
 * re-check. When no name tells them apart (a change of only common words), all are asked.
 */
export async function rankImporters(
  paths: readonly string[],
  changed: { names: ReadonlySet<string>; declared: ReadonlySet<string> },
): Promise<RankedImporters> {
  const read = await Promise.all(paths.map(readBounded));
  const bytes = new Map(paths.map((path, index) => [path, read[index]!.bytes]));
  const words = read.map(({ text }) => new Set(text.match(identifier)));
  const fewMention = (name: string): boolean =>
    words.filter((found) => found.has(name)).length <= Math.max(1, Math.floor(paths.length / 2));
  const telling = [...changed.names].filter((name) => changed.declared.has(name) || fewMention(name));
  if (telling.length === 0) return { ask: [...paths], leave: [], bytes };
  const uses = (index: number): boolean => telling.some((name) => words[index]!.has(name));
  return {
    ask: paths.filter((_, index) => uses(index)),
    leave: paths.filter((_, index) => !uses(index)),
    bytes,
  };
}

/** What asking a server about a file took lately, per byte of the file (a moving average). */
const askMsPerByte = new WeakMap<LanguageServerSession, number>();
/** Before anything was measured: pyright checks a 20 KB module of a large package in about half a second. */
const firstAskMsPerByte = 500 / 20_000;

/** How long asking `session` about the importers to ask should take, by their size and what such asks took before. */
export function askWaitMs(session: LanguageServerSession, ranked: RankedImporters): number {
  return Math.round(sizeOf(ranked, ranked.ask) * (askMsPerByte.get(session) ?? firstAskMsPerByte));
}

/** Remember how long asking about `paths` took in all (the server answers one request at a time). */
function recordAsks(session: LanguageServerSession, bytes: number, ms: number): void {
  if (bytes === 0) return;
  const previous = askMsPerByte.get(session);
  askMsPerByte.set(session, previous === undefined ? ms / bytes : 0.5 * previous + 0.5 * (ms / bytes));
}

function sizeOf(ranked: RankedImporters, paths: Iterable<string>): number {
  let total = 0;
  for (const path of paths) total += ranked.bytes.get(path) ?? 0;
  return total;
}

/** What asking about the importers gave. */
export interface ImporterAnswers {
  /** Per importer that answered, its diagnostics for the text now. */
  answered: Map<string, Diagnostic[]>;
  /** The importers asked about that did not answer in time. */
  left: string[];
}

/** Ask the server about `ranked.ask`, a few at a time, until each answered or `signal` aborts. */
export async function askImporters(
  session: LanguageServerSession,
  ranked: RankedImporters,
  signal: AbortSignal,
): Promise<ImporterAnswers> {
  const started = Date.now();
  const answered = new Map<string, Diagnostic[]>();
  const left = await eachWithin(ranked.ask, signal, async (path) => {
    const now = await pullDiagnostics(session, pathToFileURL(path).href, path, signal).catch(() => undefined);
    if (now !== undefined && !signal.aborted) answered.set(path, now);
  });
  if (!signal.aborted) recordAsks(session, sizeOf(ranked, answered.keys()), Date.now() - started);
  return { answered, left: left.filter((path) => !answered.has(path)) };
}
