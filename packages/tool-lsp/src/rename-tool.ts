import { writeFilesAtomically } from "@runbound/runtime-kit";
import { abortedError, defineTool, textResult, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { PrepareRenameRequest, RenameRequest, type WorkspaceEdit } from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { LspSupervisor } from "./lsp-supervisor.js";
import { openDocument } from "./open-document.js";
import { planWorkspaceEdit, type PlannedFile } from "./plan-workspace-edit.js";
import { checkRenameCoversReferences } from "./rename-reference-check.js";
import { renameOutputSchema } from "./rename-output.js";
import { editTouches, rangeContains, textOfRange } from "./workspace-edit-ranges.js";
import { requireCapability } from "./require-capability.js";
import { symbolCheck, symbolPosition } from "./symbol-position.js";

const maxNameLength = 256;
const shownFiles = 50;

const input = v.strictObject({
  file: v.pipe(
    v.string(),
    v.description("The file where the symbol appears (a declaration or any use), relative to the working directory."),
  ),
  line: v.pipe(v.number(), v.description("1-based line number of the symbol, as shown by the read tool.")),
  symbol: v.pipe(
    v.string(),
    v.description(
      "The identifier to rename, exactly as written on that line, e.g. `parseConfig`. Never a column number.",
    ),
  ),
  occurrence: v.optional(
    v.pipe(
      v.number(),
      v.description("Which occurrence of `symbol` on the line, 1-based, when it appears more than once."),
    ),
  ),
  new_name: v.pipe(v.string(), v.description("The new identifier, e.g. `loadConfig`.")),
});

/** The index of the first C0 control, DEL or C1 control in `text` (never part of an identifier, unprintable in a message), or -1. */
function controlCharacterIndex(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return index;
  }
  return -1;
}

/** Refuse a `new_name` that cannot be an identifier, before any server starts. */
function checkNewName(newName: string, symbol: string): void {
  const control = controlCharacterIndex(newName);
  if (control >= 0) {
    const code = `U+${newName.charCodeAt(control).toString(16).toUpperCase().padStart(4, "0")}`;
    // The name itself is not quoted: a NUL or an escape sequence would break the message.
    throw new ToolError({
      code: "invalid_input",
      message: `\`new_name\` contains the control character ${code} at character ${control + 1}; an identifier cannot contain control characters. Give the name as plain text, e.g. \`loadConfig\`.`,
    });
  }
  if (newName.length === 0 || newName.length > maxNameLength || /\s/.test(newName)) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`new_name\` \`${newName.slice(0, 80)}\` is not an identifier: give a name of 1 to ${maxNameLength} characters without spaces or line breaks, e.g. \`loadConfig\`.`,
    });
  }
  if (newName === symbol)
    throw new ToolError({
      code: "invalid_input",
      message: `\`new_name\` is \`${newName}\`, the name it already has; there is nothing to rename.`,
    });
}

function notTheSymbol(server: string, at: string, what: string): ToolError {
  return new ToolError({
    code: "invalid_input",
    message: `Language server \`${server}\` would rename ${what}, not ${at}, so nothing was changed. Give as \`symbol\` the identifier itself as written on that line.`,
  });
}

function fileRow(file: PlannedFile): string {
  if (file.deleted === true) return `- ${file.shown} (deleted)`;
  const edits = `${file.edits} ${file.edits === 1 ? "edit" : "edits"}`;
  if (file.renamedFrom !== undefined)
    return `- ${file.shown} (renamed from ${file.renamedFrom}${file.edits > 0 ? `, ${edits}` : ""})`;
  return `- ${file.shown} (${file.created === true ? "created, " : ""}${edits})`;
}

/** Rename a symbol everywhere the language server knows it, writing all files or none. */
export const lspRenameTool = defineTool({
  name: "lsp_rename",
  title: "Rename symbol",
  tier: "write",
  description:
    "Rename a symbol (variable, function, class, method, field, module…) across the project with its language server, so every reference changes and nothing else does. Address it by `file` + 1-based `line` + `symbol` as written there (+ `occurrence` if it appears twice on the line). All files are written together or none is; files the server renames or creates are too. The answer lists the changed files.",
  input,
  requires: [LspSupervisor, Workdir],
  parallelSafe: false,
  output: renameOutputSchema,
  timeoutMs: 90_000,
  run: async (request, context) => {
    const supervisor = context.resource(LspSupervisor);
    const workdir = context.resource(Workdir);
    const signal = context.signal;
    checkNewName(request.new_name, request.symbol);
    const document = await openDocument(supervisor, workdir, request.file, signal, {
      check: symbolCheck(request.line, request.symbol, request.occurrence),
    });
    const session = document.session;
    requireCapability(session, "renameProvider", RenameRequest.method);
    const params = symbolPosition(document, request.line, request.symbol, request.occurrence);
    const at = `\`${request.symbol}\` at ${document.shown}:${request.line}`;
    const provider = session.capabilities.renameProvider;
    if (typeof provider === "object" && provider !== null && provider.prepareProvider === true) {
      const prepared = await session.request(
        PrepareRenameRequest.method,
        (connection, token) => connection.sendRequest(PrepareRenameRequest.type, params, token),
        signal,
      );
      if (prepared === null || prepared === undefined) {
        throw new ToolError({
          code: "invalid_input",
          message: `Language server \`${session.spec.id}\` says ${at} cannot be renamed (a keyword, a literal, or a name from a library). Give the line and name of a symbol declared in this project.`,
        });
      }
      const range = "range" in prepared ? prepared.range : "start" in prepared ? prepared : undefined;
      if (range !== undefined && !rangeContains(range, params.position)) {
        throw notTheSymbol(
          session.spec.id,
          at,
          `\`${textOfRange(document.text, range)}\` at line ${range.start.line + 1}`,
        );
      }
    }
    const edit: WorkspaceEdit | null = await session.request(
      RenameRequest.method,
      (connection, token) =>
        connection.sendRequest(RenameRequest.type, { ...params, newName: request.new_name }, token),
      signal,
    );
    if (edit === null || edit === undefined) {
      throw new ToolError({
        code: "not_found",
        message: `Language server \`${session.spec.id}\` found nothing to rename for ${at}. Check that \`symbol\` is the identifier itself, with \`lsp\` \`hover\` on the same line.`,
      });
    }
    // A server may rename the token next to the one asked for (tsserver does, for a keyword): refuse an edit that does not touch the symbol itself.
    if (!editTouches(edit, document.uri, params.position)) throw notTheSymbol(session.spec.id, at, "other places only");
    const plan = await planWorkspaceEdit(edit, {
      workdir,
      encoding: session.positionEncoding,
      openVersion: (uri) => session.documents.version(uri),
      author: `Language server \`${session.spec.id}\``,
    });
    if (plan.changes.length === 0) {
      throw new ToolError({
        code: "not_found",
        message: `Language server \`${session.spec.id}\` answered the rename of ${at} with an edit that changes nothing. Check the position with \`lsp\` \`hover\`.`,
      });
    }
    const note = await checkRenameCoversReferences(session, edit, {
      workdir,
      params,
      text: document.text,
      at,
      symbol: request.symbol,
      signal,
    });
    if (signal.aborted)
      throw abortedError(signal, {
        timeout: "The rename ran out of time before anything was written. Try again.",
        cancelled: "The rename was cancelled before anything was written.",
      });
    await writeFilesAtomically(plan.changes, { workdir });
    context.wrote(plan.changes.map((change) => change.path));
    const edits = plan.files.reduce((sum, file) => sum + file.edits, 0);
    const rows = plan.files.map(fileRow);
    const bounded = boundedRows({
      rows,
      total: rows.length,
      cap: shownFiles,
      maxBytes: 8 * 1024,
      noun: ["file", "files"],
      narrow: "the rest changed too; search for the new name to see them",
    });
    const header = `Renamed \`${request.symbol}\` to \`${request.new_name}\`: ${edits} ${edits === 1 ? "edit" : "edits"} in ${bounded.header}`;
    return textResult(`${header}${note}\n${bounded.shown.join("\n")}`, {
      renamed: request.symbol,
      to: request.new_name,
      edits,
      files: plan.files,
    });
  },
});
