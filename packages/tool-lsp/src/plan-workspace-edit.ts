import { displayPath, readFileInWorkdir, resolveInWorkdir, type FileChange } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { fileURLToPath } from "node:url";
import type { Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { utf16IndexFromCharacter, type PositionEncoding } from "./position-encoding.js";

/** One file a workspace edit changes, for the answer. */
export interface PlannedFile {
  /** Workspace-relative path after the edit. */
  shown: string;
  /** Text edits applied to it. */
  edits: number;
  /** Its path before, when the edit renamed it. */
  renamedFrom?: string;
  /** Created or deleted by the edit. */
  created?: boolean;
  deleted?: boolean;
}

/** A workspace edit turned into whole-file changes for tool-kit's atomic writer. */
export interface PlannedEdit {
  changes: FileChange[];
  files: PlannedFile[];
}

/** What the planner needs besides the edit. */
export interface PlanSettings {
  workdir: string;
  /** The server's position encoding, to turn its `character`s into string indexes. */
  encoding: PositionEncoding;
  /** The version the server has of an open document (to refuse an edit made for another one). */
  openVersion: (uri: string) => number | undefined;
  /** Who made the edit, for messages, e.g. "Language server `typescript`". */
  author: string;
}

interface FileState {
  /** What is on disk now (`null`: no file). */
  original: string | null;
  current: string | null;
  edits: number;
  renamedFrom?: string;
}

const maxFiles = 2_000;

function malformed(author: string, what: string): ToolError {
  return new ToolError({
    code: "unavailable",
    message: `${author} answered with a workspace edit that cannot be applied: ${what}. Nothing was changed; try \`lsp\` \`reload\` and rename again.`,
  });
}

/** Offsets of the start of every line, where a line ends at `\r\n`, `\n` or `\r` (LSP's rule). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
    if (code === 10 || code === 13) starts.push(index + 1);
  }
  return starts;
}

function offsetOf(
  text: string,
  starts: readonly number[],
  position: Range["start"],
  encoding: PositionEncoding,
): number {
  // A position past the last line means the end of the document, as the protocol says.
  if (position.line >= starts.length) return text.length;
  const start = starts[position.line]!;
  const end = position.line + 1 < starts.length ? starts[position.line + 1]! : text.length;
  const lineText = text.slice(start, end).replace(/\r?\n$|\r$/, "");
  return start + utf16IndexFromCharacter(lineText, position.character, encoding);
}

function isPosition(value: unknown): value is Range["start"] {
  const position = value as Range["start"] | undefined;
  return (
    typeof position?.line === "number" &&
    typeof position.character === "number" &&
    Number.isInteger(position.line) &&
    Number.isInteger(position.character) &&
    position.line >= 0 &&
    position.character >= 0
  );
}

/** Apply text edits (all against the same original text, as LSP defines them); overlapping ones are refused. */
export function applyTextEdits(
  text: string,
  edits: readonly TextEdit[],
  encoding: PositionEncoding,
  author: string,
  shown: string,
): string {
  const starts = lineStarts(text);
  const spans = edits.map((edit, order) => {
    if (!isPosition(edit?.range?.start) || !isPosition(edit.range.end) || typeof edit.newText !== "string")
      throw malformed(author, `an edit of \`${shown}\` has no valid range or text`);
    const from = offsetOf(text, starts, edit.range.start, encoding);
    const to = offsetOf(text, starts, edit.range.end, encoding);
    if (to < from)
      throw malformed(author, `an edit of \`${shown}\` ends before it starts (line ${edit.range.start.line + 1})`);
    return { from, to, newText: edit.newText, order };
  });
  spans.sort((a, b) => a.from - b.from || a.to - b.to || a.order - b.order);
  for (let index = 1; index < spans.length; index += 1) {
    if (spans[index]!.from < spans[index - 1]!.to) throw malformed(author, `two edits of \`${shown}\` overlap`);
  }
  let result = "";
  let at = 0;
  for (const span of spans) {
    result += text.slice(at, span.from) + span.newText;
    at = span.to;
  }
  return result + text.slice(at);
}

/**
 * Turn a server's WorkspaceEdit (`changes`, or `documentChanges` with text edits and create, rename
 * and delete operations, applied in order) into whole-file changes that tool-kit's atomic writer
 * applies all together or not at all. Every file is confined to the workdir and read through tool-kit
 * first; an edit that reaches outside, overlaps itself, targets another version of an open document,
 * or deletes a directory is refused before anything is written.
 */
export async function planWorkspaceEdit(edit: WorkspaceEdit, settings: PlanSettings): Promise<PlannedEdit> {
  const { workdir, author } = settings;
  const files = new Map<string, FileState>();

  const pathOf = async (uri: unknown): Promise<string> => {
    if (typeof uri !== "string") throw malformed(author, "a file is not named by a URI");
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      throw malformed(author, `\`${uri}\` is not a file URI`);
    }
    try {
      return await resolveInWorkdir(workdir, path);
    } catch (error) {
      if (ToolError.isInstance(error) && error.code === "outside_workdir") {
        throw new ToolError({
          code: "outside_workdir",
          message: `${author} wants to change \`${path}\`, which is outside the working directory, so nothing was changed. Rename only symbols whose uses all lie inside the working directory.`,
        });
      }
      throw error;
    }
  };
  /** `readError` maps what reading the file threw; the file limit is checked outside it, so a caller's mapping cannot hide it. */
  const stateOf = async (
    path: string,
    readError: (error: unknown) => unknown = (error) => error,
  ): Promise<FileState> => {
    let state = files.get(path);
    if (state === undefined) {
      if (files.size >= maxFiles)
        throw new ToolError({
          code: "invalid_input",
          message: `${author} wants to change more than ${maxFiles} files; nothing was changed. Rename something with fewer uses, or in smaller steps.`,
        });
      const bytes = await readFileInWorkdir(workdir, path, { shown: displayPath(workdir, path) }).catch(
        (error: unknown) => {
          throw readError(error);
        },
      );
      const original = bytes === null ? null : bytes.toString("utf8");
      state = { original, current: original, edits: 0 };
      files.set(path, state);
    }
    return state;
  };
  const textEdits = async (uri: unknown, edits: unknown, version: unknown): Promise<void> => {
    const path = await pathOf(uri);
    const shown = displayPath(workdir, path);
    if (!Array.isArray(edits)) throw malformed(author, `the edits of \`${shown}\` are not a list`);
    const open = settings.openVersion(uri as string);
    if (typeof version === "number" && open !== undefined && version !== open) {
      throw new ToolError({
        code: "conflict",
        message: `${author} computed the edit of \`${shown}\` for version ${version}, but it has version ${open}: the file changed meanwhile. Nothing was changed; rename again.`,
      });
    }
    const state = await stateOf(path);
    if (state.current === null) throw malformed(author, `it edits \`${shown}\`, which does not exist`);
    state.current = applyTextEdits(state.current, edits as TextEdit[], settings.encoding, author, shown);
    state.edits += edits.length;
  };

  if (Array.isArray(edit?.documentChanges)) {
    for (const change of edit.documentChanges as unknown[]) {
      const operation = change as Record<string, unknown> & { kind?: unknown; options?: Record<string, unknown> };
      if (operation.kind === undefined) {
        const document = operation["textDocument"] as { uri?: unknown; version?: unknown } | undefined;
        await textEdits(document?.uri, operation["edits"], document?.version);
      } else if (operation.kind === "create") {
        const state = await stateOf(await pathOf(operation["uri"]));
        if (state.current !== null && operation.options?.["overwrite"] !== true) {
          if (operation.options?.["ignoreIfExists"] === true) continue;
          throw malformed(
            author,
            `it creates \`${displayPath(workdir, await pathOf(operation["uri"]))}\`, which exists`,
          );
        }
        state.current = "";
      } else if (operation.kind === "rename") {
        const from = await pathOf(operation["oldUri"]);
        const to = await pathOf(operation["newUri"]);
        const source = await stateOf(from);
        const target = await stateOf(to);
        if (source.current === null)
          throw malformed(author, `it renames \`${displayPath(workdir, from)}\`, which does not exist`);
        if (target.current !== null && operation.options?.["overwrite"] !== true) {
          if (operation.options?.["ignoreIfExists"] === true) continue;
          throw malformed(
            author,
            `it renames \`${displayPath(workdir, from)}\` onto \`${displayPath(workdir, to)}\`, which exists`,
          );
        }
        target.current = source.current;
        target.edits += source.edits;
        target.renamedFrom = displayPath(workdir, from);
        source.current = null;
        source.edits = 0;
      } else if (operation.kind === "delete") {
        const path = await pathOf(operation["uri"]);
        const state = await stateOf(path, (error) =>
          ToolError.isInstance(error) && error.code === "invalid_input"
            ? malformed(
                author,
                `it deletes \`${displayPath(workdir, path)}\`, which is not a regular file (deleting directories is not supported)`,
              )
            : error,
        );
        if (state.current === null && operation.options?.["ignoreIfNotExists"] !== true)
          throw malformed(author, `it deletes \`${displayPath(workdir, path)}\`, which does not exist`);
        state.current = null;
      } else {
        throw malformed(author, `it has an operation of unknown kind \`${String(operation.kind)}\``);
      }
    }
  } else if (edit?.changes !== undefined && edit.changes !== null && typeof edit.changes === "object") {
    for (const [uri, edits] of Object.entries(edit.changes)) await textEdits(uri, edits, undefined);
  }

  const changes: FileChange[] = [];
  const planned: PlannedFile[] = [];
  const renamedAway = new Set(
    [...files.values()].flatMap((state) => (state.renamedFrom === undefined ? [] : [state.renamedFrom])),
  );
  for (const [path, state] of files) {
    if (state.current === state.original) continue;
    const shown = displayPath(workdir, path);
    changes.push({ path, content: state.current, expected: state.original, label: shown });
    if (state.current === null) {
      if (!renamedAway.has(shown)) planned.push({ shown, edits: 0, deleted: true });
      continue;
    }
    planned.push({
      shown,
      edits: state.edits,
      ...(state.renamedFrom === undefined ? {} : { renamedFrom: state.renamedFrom }),
      ...(state.original === null && state.renamedFrom === undefined ? { created: true } : {}),
    });
  }
  return { changes, files: planned };
}
