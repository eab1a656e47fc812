import { displayPath, isInside, readFileInWorkdir, resolveInWorkdir } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { dependencyFiles, readDependencyFile } from "./dependency-files.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import type { OpAnswer } from "./op-types.js";
import { splitLines } from "./position-from-symbol.js";
import { maxDocumentBytes } from "./resync-from-disk.js";

/** The most lines `source` shows at once. */
export const SOURCE_MAX_LINES = 200;
const maxSourceBytes = 16 * 1024;

async function textOf(
  supervisor: LspSupervisorInstance,
  workdir: string,
  file: string,
): Promise<{ shown: string; text: string }> {
  const root = await realpath(workdir);
  const lexical = resolve(root, file);
  if (!isInside(root, lexical)) {
    const files = dependencyFiles(supervisor);
    if (!files.has(lexical)) {
      throw new ToolError({
        code: "outside_workdir",
        message: `\`file\` \`${file}\` is outside the working directory, and no language server named it as a location in this run. \`source\` reads an outside file (a dependency, the toolchain's sources) only after an \`lsp\` answer pointed into it: ask \`definition\`, \`references\` or \`outgoing_calls\` first, then pass the path it shows.`,
      });
    }
    const text = await readDependencyFile(lexical, files);
    if (text === undefined) {
      throw new ToolError({
        code: "not_found",
        message: `\`${file}\` is not a readable source file of at most ${maxDocumentBytes / 1024 / 1024} MB (a language of the server table, a regular file after following links).`,
      });
    }
    return { shown: lexical, text };
  }
  const path = await resolveInWorkdir(workdir, file);
  const shown = displayPath(root, path);
  const bytes = await readFileInWorkdir(workdir, path, { maxBytes: maxDocumentBytes, shown });
  if (bytes === null)
    throw new ToolError({
      code: "not_found",
      message: `File \`${file}\` does not exist in the working directory. Give the path an \`lsp\` answer showed.`,
    });
  return { shown, text: bytes.toString("utf8") };
}

/**
 * Answer `source`: lines `line` to `endLine` of a file in the workdir or of a file outside it that a
 * language server returned as a location in this run (read-only; writes stay confined to the workdir).
 */
export async function sourceOp(
  supervisor: LspSupervisorInstance,
  workdir: string,
  file: string,
  line: number,
  endLine: number | undefined,
): Promise<OpAnswer> {
  const last = endLine ?? line + 39;
  if (
    !Number.isInteger(line) ||
    line < 1 ||
    !Number.isInteger(last) ||
    last < line ||
    last - line + 1 > SOURCE_MAX_LINES
  ) {
    throw new ToolError({
      code: "invalid_input",
      message: `Lines \`${line}\`–\`${last}\` are not a range \`source\` shows: give 1-based \`line\` and \`end_line\` with \`line\` ≤ \`end_line\`, at most ${SOURCE_MAX_LINES} lines.`,
    });
  }
  const { shown, text } = await textOf(supervisor, workdir, file);
  const lines = splitLines(text);
  if (lines.at(-1) === "") lines.pop();
  if (line > lines.length)
    throw new ToolError({
      code: "invalid_input",
      message: `\`line\` ${line} is past the end of \`${shown}\`, which has ${lines.length} lines.`,
    });
  const end = Math.min(last, lines.length);
  const width = String(end).length;
  const rows: string[] = [];
  let bytes = 0;
  for (let number = line; number <= end; number += 1) {
    const row = `${String(number).padStart(width)}  ${lines[number - 1]}`;
    bytes += Buffer.byteLength(row) + 1;
    if (bytes > maxSourceBytes && rows.length > 0) break;
    rows.push(row);
  }
  const shownEnd = line + rows.length - 1;
  const cut =
    shownEnd < end
      ? `; lines ${shownEnd + 1}–${end} not shown (over ${maxSourceBytes / 1024} KB): ask from \`line\` ${shownEnd + 1}`
      : "";
  return {
    text: `${shown}:${line}–${shownEnd} of ${lines.length} lines${cut}:\n${rows.join("\n")}`,
    structured: { op: "source", file: shown, line, endLine: shownEnd, total: lines.length, lines: rows },
  };
}
