import { displayPath, resolveInWorkdir, writeFilesAtomically } from "@runbound/runtime-kit";
import { defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { pathField } from "./path-field.js";
import { readTextOrNull } from "./read-text-or-null.js";

function lineNumbersOf(content: string, needle: string): number[] {
  const lines: number[] = [];
  // Count newlines incrementally between matches: one pass over the file however many matches there are.
  let line = 1;
  let counted = 0;
  for (let index = content.indexOf(needle); index !== -1; index = content.indexOf(needle, index + needle.length)) {
    for (let at = content.indexOf("\n", counted); at !== -1 && at < index; at = content.indexOf("\n", at + 1))
      line += 1;
    counted = index;
    lines.push(line);
  }
  return lines;
}

// A replace_all over a generated file can touch thousands of lines; the answer names the first ones.
const shownLineNumbers = 20;

function listLines(lines: readonly number[]): string {
  const more = lines.length - shownLineNumbers;
  return `${lines.slice(0, shownLineNumbers).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** `edit`: replace an exact string in one file. */
export const editTool = defineTool({
  name: "edit",
  title: "Edit file",
  tier: "write",
  description:
    "Replace an exact string in a file. `old_string` must occur exactly once unless `replace_all` is true; include enough surrounding lines to make it unique. Whitespace and indentation must match exactly.",
  input: v.strictObject({
    path: pathField,
    old_string: v.pipe(v.string(), v.description("The exact text to replace.")),
    new_string: v.pipe(v.string(), v.description("The text to put in its place.")),
    replace_all: v.optional(
      v.pipe(v.boolean(), v.description("Replace every occurrence instead of requiring exactly one. Default false.")),
    ),
  }),
  requires: [Workdir],
  // Edits are read-modify-write: run them one at a time so parallel edits of one file all apply.
  parallelSafe: false,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const path = await resolveInWorkdir(workdir, input.path);
    const relative = displayPath(workdir, path);
    const shown = `\`${relative}\``;
    if (input.old_string.length === 0) {
      throw new ToolError({
        code: "invalid_input",
        message: "`old_string` is empty. Give the exact text to replace, or use `write` to create a file.",
      });
    }
    if (input.old_string === input.new_string) {
      throw new ToolError({
        code: "invalid_input",
        message: "`old_string` and `new_string` are the same; there is nothing to change.",
      });
    }
    const content = await readTextOrNull(workdir, path, relative);
    if (content === null)
      throw new ToolError({ code: "not_found", message: `File ${shown} does not exist. Use \`write\` to create it.` });
    // `read` shows lines without their CR, so text for a CRLF file arrives with bare newlines: match it,
    // and write new_string, with the file's own CRLF endings (text that carries CRs is taken as it is).
    const toCrlf = (text: string): string => text.replace(/\n/g, "\r\n");
    const crlf =
      content.includes("\r\n") &&
      !`${input.old_string}${input.new_string}`.includes("\r") &&
      content.includes(toCrlf(input.old_string));
    const oldString = crlf ? toCrlf(input.old_string) : input.old_string;
    const newString = crlf ? toCrlf(input.new_string) : input.new_string;
    const lines = lineNumbersOf(content, oldString);
    if (lines.length === 0) {
      throw new ToolError({
        code: "not_found",
        message: `\`old_string\` was not found in ${shown}. Read the file and copy the text exactly, including whitespace and indentation.`,
      });
    }
    if (lines.length > 1 && input.replace_all !== true) {
      throw new ToolError({
        code: "invalid_input",
        message: `\`old_string\` occurs ${lines.length} times in ${shown} (lines ${listLines(lines)}). Add surrounding lines to make it unique, or pass replace_all=true.`,
      });
    }
    // split/join, not String.replace: `$&` and friends in new_string must stay literal.
    const updated = content.split(oldString).join(newString);
    await writeFilesAtomically([{ path, content: updated, expected: content, label: relative }], { workdir });
    context.wrote([path]);
    return `Edited ${shown}: ${lines.length} replacement${lines.length === 1 ? "" : "s"} (line${lines.length === 1 ? "" : "s"} ${listLines(lines)}).`;
  },
});
