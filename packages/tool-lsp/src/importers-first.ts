import { isInside } from "@runbound/runtime-kit";
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";
import { readDiskStamp } from "./disk-stamp.js";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { pullDiagnostics } from "./collect-diagnostics.js";
import { eachWithin } from "./each-within.js";
import type { LanguageServerSession } from "./language-server-session.js";
import { maxDocumentBytes } from "./resync-from-disk.js";
import type { PublishedSet } from "./published-diagnostics.js";
import { pythonChangeReach, pythonCode } from "./python-change-reach.js";

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
const anyIdentifier = /[A-Za-z_][A-Za-z0-9_]*/g;
/** A declaration's name: `def f`, `class C`, `function f`, `interface I`, `type T`, `const x`, `func F`, or `X = …` at a line's start. */
const declaration =
  /\b(?:def|class|function|interface|type|enum|const|let|var|struct|func)\s+([A-Za-z_][A-Za-z0-9_]*)|^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/gm;

/** What a write changed, as the modules that import the written one may see it. */
export interface ChangedNames {
  /** Every identifier on the lines that differ, before and after. */
  names: Set<string>;
  /** The names those lines declare (or, for Python, the declarations they belong to). */
  declared: Set<string>;
  /** Nothing an importer sees changed (Python: only comments, or the body of a function whose return type is declared). */
  confined?: boolean;
}

/**
 * The names a change touched: on the lines that differ between the two texts, every identifier, and
 * the names they declare. With `python`, the declarations the lines belong to are read from the
 * indentation (`python-change-reach.ts`): then only those names tell which importers may see the
 * change, and a change no importer can see is `confined`.
 */
export function changedNames(before: string, after: string, python = false): ChangedNames {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end += 1;
  const lines = (text: string): { from: number; to: number } => {
    const from = text.lastIndexOf("\n", start - 1) + 1;
    const to = text.indexOf("\n", text.length - end);
    return { from, to: to === -1 ? text.length : to };
  };
  const names = new Set<string>();
  const declared = new Set<string>();
  if (before === after) return { names, declared };
  const blocks = [before, after].map((text) => ({ text, ...lines(text) }));
  for (const { text, from, to } of blocks) {
    const changed = text.slice(from, to);
    for (const match of changed.matchAll(identifier)) names.add(match[0]);
    for (const match of changed.matchAll(declaration)) declared.add((match[1] ?? match[2])!);
  }
  if (!python) return { names, declared };
  const [was, is] = blocks.map(({ text, from, to }) => ({ code: pythonCode(text.slice(from, to)), text, from, to }));
  if (was!.code === is!.code) return { names: new Set(), declared: new Set(), confined: true };
  const reaches = [was!, is!].map(({ text, from, to }) => pythonChangeReach(text, from, to));
  // Module-level lines that declare nothing by themselves (an import, `__all__`): every identifier on them may tell.
  if (reaches.some((reach) => reach.kind === "module")) return { names, declared };
  const reached = new Set(reaches.flatMap((reach) => (reach.kind === "names" ? reach.names : [])));
  return { names: reached, declared: new Set(reached), confined: reached.size === 0 };
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
  /** Whether no importer can see the change (Python: comments, or the body of a function whose return type is declared). */
  confined?: boolean;
  /** Each importer's size: the smallest are asked first. */
  bytes: ReadonlyMap<string, number>;
  /** The names that told the asked importers apart (none when all or none are asked). */
  telling?: string[];
}

/**
 * Split the importers by the changed names they mention: those that mention a name the write
 * declared, or one that at most half of them mention (a name every importer has, `str` or `def`,
 * says nothing), use what changed and are asked about; the rest are left to the server's own
 * re-check. When no name tells them apart (a change of only common words), all are asked; when the
 * change is `confined` (no importer can see it), none. The smallest are asked first: the server
 * checks one at a time, so more of them answer within the wait.
 */
export async function rankImporters(
  paths: readonly string[],
  changed: { names: ReadonlySet<string>; declared: ReadonlySet<string>; confined?: boolean },
): Promise<RankedImporters> {
  const read = await Promise.all(paths.map(readBounded));
  const bytes = new Map(paths.map((path, index) => [path, read[index]!.bytes]));
  if (changed.confined === true) return { ask: [], leave: [...paths], bytes, confined: true };
  const words = read.map(({ text }) => new Set(text.match(anyIdentifier)));
  const fewMention = (name: string): boolean =>
    words.filter((found) => found.has(name)).length <= Math.max(1, Math.floor(paths.length / 2));
  const telling = [...changed.names].filter((name) => changed.declared.has(name) || fewMention(name));
  const smallestFirst = (a: string, b: string): number => bytes.get(a)! - bytes.get(b)!;
  if (telling.length === 0) return { ask: [...paths].sort(smallestFirst), leave: [], bytes };
  const uses = (index: number): boolean => telling.some((name) => words[index]!.has(name));
  return {
    ask: paths.filter((_, index) => uses(index)).sort(smallestFirst),
    leave: paths.filter((_, index) => !uses(index)),
    bytes,
    telling,
  };
}

const dynamicGetattr = /^(?:__getattr__[ \t]*(?::[^=\n]*)?=|def[ \t]+__getattr__\b)/m;

/**
 * Python: an asked importer whose module-level `__getattr__` uses a changed name (pydantic's
 * `__getattr__ = getattr_migration(__name__)`) answers every attribute the module does not define
 * with it, so a file that uses that module as an object (`import pkg`, then `pkg.anything`) may break
 * without naming anything the write changed: those of the `importers` are asked about too.
 */
export async function throughModuleGetattr(
  session: LanguageServerSession,
  ranked: RankedImporters,
  importers: readonly string[],
  signal: AbortSignal,
): Promise<RankedImporters> {
  const importersOf = session.spec.importersOf;
  const telling = ranked.telling ?? [];
  if (importersOf === undefined || telling.length === 0 || ranked.leave.length === 0) return ranked;
  const candidates = new Set(ranked.leave.filter((path) => importers.includes(path)));
  const added = new Set<string>();
  for (const module of ranked.ask) {
    if (signal.aborted || candidates.size === 0 || !/\.pyi?$/.test(module)) continue;
    const { text } = await readBounded(module);
    const getattr = dynamicGetattr.exec(text);
    if (getattr === null) continue;
    const line = text.slice(getattr.index, text.indexOf("\n", getattr.index) >>> 0);
    const uses = telling.some((name) => (getattr[0].startsWith("def") ? text : line).match(wordOf(name)) !== null);
    if (!uses) continue;
    const stem = basename(module, extname(module));
    const name = (stem === "__init__" ? basename(dirname(module)) : stem).replace(/[^\w]/g, "");
    if (name === "") continue;
    const asObject = new RegExp(
      `^[ \\t]*(?:import[ \\t]+(?:[\\w.]+\\.)?${name}\\b(?![ \\t]*\\.)|from[ \\t]+[\\w.]+[ \\t]+import[ \\t(]+(?:[^\\n]*,[ \\t]*)?${name}\\b)`,
      "m",
    );
    for (const importer of (await importersOf(session, module, signal).catch(() => undefined)) ?? []) {
      if (!candidates.has(importer)) continue;
      if (asObject.test((await readBounded(importer)).text)) {
        candidates.delete(importer);
        added.add(importer);
      }
    }
  }
  if (added.size === 0) return ranked;
  const ask = [...ranked.ask, ...added].sort((a, b) => (ranked.bytes.get(a) ?? 0) - (ranked.bytes.get(b) ?? 0));
  return { ...ranked, ask, leave: ranked.leave.filter((path) => !added.has(path)) };
}

function wordOf(name: string): RegExp {
  return new RegExp(`\\b${name.replace(/[^\w]/g, "")}\\b`);
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
  const answered = new Map<string, Diagnostic[]>();
  const left = await eachWithin(ranked.ask, signal, async (path) => {
    const now = await pullDiagnostics(session, pathToFileURL(path).href, path, signal).catch(() => undefined);
    if (now !== undefined && !signal.aborted) answered.set(path, now);
  });
  return { answered, left: left.filter((path) => !answered.has(path)) };
}

/**
 * Open in the server the importers about to be asked about that it does not have open, with their
 * text from disk, before the write's own change reaches it: pyright checks open files before the
 * rest of its workspace, so its own re-check after the change goes first through these files instead
 * of checking other dependents between the asks. The text is the file's, so opening changes nothing pyright checks. @returns the URIs it borrowed
 * (see `DocumentSync.borrow`), for {@link closeOpenedForAsks}.
 */
export async function openForAsks(session: LanguageServerSession, paths: readonly string[]): Promise<string[]> {
  const opened: string[] = [];
  for (const path of paths) {
    const uri = pathToFileURL(path).href;
    if (session.documents.isKeptOpen(uri) || session.exit !== undefined) continue;
    const stamp = await readDiskStamp(path);
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (stamp === null || text === undefined) continue;
    const languageId = session.spec.languages[extname(path).toLowerCase()] ?? session.spec.id;
    if (session.documents.borrow(path, text, languageId, stamp)) opened.push(uri);
  }
  return opened;
}

/** Give back what {@link openForAsks} borrowed; the last borrower closes it, and pyright re-reads such a file from disk and re-checks nothing when it did not change. */
export function closeOpenedForAsks(session: LanguageServerSession, opened: readonly string[]): void {
  if (session.exit !== undefined) return;
  for (const uri of opened) session.documents.release(uri);
}
