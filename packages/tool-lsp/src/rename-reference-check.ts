import { displayPath, readFileInWorkdir } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { fileURLToPath } from "node:url";
import {
  ReferencesRequest,
  type Location,
  type Range,
  type TextDocumentPositionParams,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol";
import type { LanguageServerSession } from "./language-server-session.js";
import { utf16IndexFromCharacter, type PositionEncoding } from "./position-encoding.js";
import { splitLines } from "./position-from-symbol.js";
import { uncoveredReferences } from "./uncovered-references.js";
import { rangeContains } from "./workspace-edit-ranges.js";

/** Uses named in a refusal; the rest are counted. */
const shownUses = 5;
/** Files read to tell an alias from a missed use; past this, a missed use is counted without looking. */
const maxFilesRead = 20;

/** What {@link checkRenameCoversReferences} needs besides the session and the edit. */
export interface RenameCheckContext {
  workdir: string;
  /** The position the rename was asked for. */
  params: TextDocumentPositionParams;
  /** The renamed document's text, as the server has it. */
  text: string;
  /** How the answer names the symbol, e.g. "`greet` at src/greet.ts:2". */
  at: string;
  /** The name asked for, used when no reference lies at the position. */
  symbol: string;
  signal: AbortSignal;
}

function textAt(text: string, range: Range, encoding: PositionEncoding): string | undefined {
  if (range.start.line !== range.end.line) return undefined;
  const line = splitLines(text)[range.start.line];
  if (line === undefined) return undefined;
  return line.slice(
    utf16IndexFromCharacter(line, range.start.character, encoding),
    utf16IndexFromCharacter(line, range.end.character, encoding),
  );
}

function shownLocation(workdir: string, location: Location): string {
  let path: string;
  try {
    path = displayPath(workdir, fileURLToPath(location.uri));
  } catch {
    path = location.uri;
  }
  return `${path}:${location.range.start.line + 1}`;
}

/**
 * The uncovered references that still read the old name. A reference through an alias
 * (`import { greet as hello }` then `hello()`) is listed by tsserver but rightly not renamed: its
 * text is another name, so it is no miss. A file that cannot be read counts as a miss.
 */
async function stillOldName(
  uncovered: readonly Location[],
  oldName: string,
  context: RenameCheckContext,
  encoding: PositionEncoding,
): Promise<Location[]> {
  const texts = new Map<string, string | undefined>([[context.params.textDocument.uri, context.text]]);
  for (const uri of new Set(uncovered.map((location) => location.uri))) {
    if (texts.has(uri) || texts.size > maxFilesRead) continue;
    let text: string | undefined;
    try {
      text = (await readFileInWorkdir(context.workdir, fileURLToPath(uri)))?.toString("utf8");
    } catch {
      text = undefined;
    }
    texts.set(uri, text);
  }
  return uncovered.filter((location) => {
    const text = texts.get(location.uri);
    return text === undefined || textAt(text, location.range, encoding) === oldName;
  });
}

/**
 * Ask the server that answered a rename for the references of the same position (declaration
 * included), and refuse the rename (`conflict`, nothing written) when some of them lie outside every
 * edit: a server answering from a partial or stale view of the project (issue 21 §5) renames the
 * declaration and leaves uses with the old name, and the project no longer compiles. A server
 * without `referencesProvider` is not asked. @returns a note for the answer when the check could not
 * be made ("" otherwise).
 */
export async function checkRenameCoversReferences(
  session: LanguageServerSession,
  edit: WorkspaceEdit,
  context: RenameCheckContext,
): Promise<string> {
  if (session.capabilities.referencesProvider === undefined || session.capabilities.referencesProvider === false)
    return "";
  let references: Location[] | null;
  try {
    references = await session.request(
      ReferencesRequest.method,
      (connection, token) =>
        connection.sendRequest(
          ReferencesRequest.type,
          { ...context.params, context: { includeDeclaration: true } },
          token,
        ),
      context.signal,
    );
  } catch (error) {
    // A server that answered the rename but fails on references: the rename is not refused for it, only not cross-checked.
    if (ToolError.isInstance(error) && error.code === "unavailable")
      return ` (Not cross-checked against \`textDocument/references\`: ${error.message})`;
    throw error;
  }
  if (!Array.isArray(references)) return "";
  const encoding = session.positionEncoding;
  const here = references.find(
    (location) =>
      location?.uri === context.params.textDocument.uri &&
      location.range !== undefined &&
      rangeContains(location.range, context.params.position),
  );
  const oldName = (here === undefined ? undefined : textAt(context.text, here.range, encoding)) ?? context.symbol;
  const missed = await stillOldName(uncoveredReferences(edit, references), oldName, context, encoding);
  if (missed.length === 0) return "";
  const named = missed.slice(0, shownUses).map((location) => shownLocation(context.workdir, location));
  const more = missed.length > shownUses ? ` and ${missed.length - shownUses} more` : "";
  throw new ToolError({
    code: "conflict",
    message:
      `Language server \`${session.spec.id}\` answered the rename of ${context.at} with an edit that leaves ${missed.length} of the ${references.length} references it lists with the old name \`${oldName}\`: ${named.join(", ")}${more}. Nothing was written. ` +
      "Its view of the project is probably out of date (files changed outside the run, or it is still loading): call `lsp` with `op` `reload` for this file and rename again, or rename those uses yourself.",
  });
}
