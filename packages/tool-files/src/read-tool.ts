import {
  displayPath,
  inspectInWorkdir,
  listDirectoryInWorkdir,
  readFileInWorkdir,
  resolveInWorkdir,
} from "@runbound/runtime-kit";
import { defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { pathField } from "./path-field.js";

const defaultLimit = 2000;
const maxLineLength = 2000;
const textBudgetBytes = 15 * 1024;
const maxDirectoryEntries = 200;
const maxFileBytes = 256 * 1024 * 1024;

async function listDirectory(workdir: string, path: string, shown: string): Promise<string> {
  const entries = (await listDirectoryInWorkdir(workdir, path)).sort((a, b) => a.name.localeCompare(b.name));
  // Marked like `ls -F`: directories end in `/`, symbolic links in `@`.
  const lines = entries
    .slice(0, maxDirectoryEntries)
    .map((entry) => `${entry.name}${entry.isDirectory() ? "/" : entry.isSymbolicLink() ? "@" : ""}`);
  const more =
    entries.length > maxDirectoryEntries
      ? `\n(${maxDirectoryEntries} of ${entries.length} entries shown; read a subdirectory to narrow.)`
      : "";
  return `${shown} is a directory with ${entries.length} entries:\n${lines.join("\n")}${more}`;
}

/** `read`: a text file's lines, numbered, from `offset`; a directory's entries. */
export const readTool = defineTool({
  name: "read",
  title: "Read file",
  tier: "read",
  description: `Read a text file inside the working directory. Lines are numbered from 1; by default the first ${defaultLimit} lines are shown, long lines are cut at ${maxLineLength} characters, and the answer says how to read on. Reading a directory lists its entries.`,
  input: v.strictObject({
    path: pathField,
    offset: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.description("First line to show (1-based). Default 1.")),
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description(`How many lines to show at most. Default ${defaultLimit}.`),
      ),
    ),
  }),
  requires: [Workdir],
  parallelSafe: true,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const path = await resolveInWorkdir(workdir, input.path);
    const relative = displayPath(workdir, path);
    const shown = `\`${relative}\``;
    const stats = await inspectInWorkdir(workdir, path);
    const missing = () =>
      new ToolError({
        code: "not_found",
        message: `File ${shown} does not exist. Check the path (it is relative to \`${workdir}\`).`,
      });
    if (stats === null) throw missing();
    if (stats.isDirectory()) return listDirectory(workdir, path, shown);
    // A FIFO or device would block until the call's timeout; a huge file would not fit in memory.
    if (!stats.isFile())
      throw new ToolError({
        code: "invalid_input",
        message: `${shown} is not a regular file (a pipe, socket or device); \`read\` reads files and directories.`,
      });
    if (stats.size > maxFileBytes) {
      throw new ToolError({
        code: "invalid_input",
        message: `File ${shown} is ${Math.round(stats.size / 1024 / 1024)} MiB; \`read\` shows files up to ${maxFileBytes / 1024 / 1024} MiB. Read a smaller file.`,
      });
    }
    // Read through the directory handles: the path may have been swapped since it was inspected.
    const buffer = await readFileInWorkdir(workdir, path, { shown: relative, maxBytes: maxFileBytes });
    if (buffer === null) throw missing();
    if (buffer.includes(0))
      throw new ToolError({
        code: "invalid_input",
        message: `File ${shown} is binary (it contains NUL bytes); \`read\` shows text files only.`,
      });
    const lines = buffer.toString("utf8").split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop();
    const offset = input.offset ?? 1;
    if (lines.length === 0) return `${shown} is empty.`;
    if (offset > lines.length) {
      throw new ToolError({
        code: "invalid_input",
        message: `Offset \`${offset}\` is past the end of ${shown}, which has ${lines.length} lines. Use an offset from 1 to ${lines.length}.`,
      });
    }
    const last = Math.min(lines.length, offset - 1 + (input.limit ?? defaultLimit));
    const width = String(last).length;
    const out: string[] = [];
    let bytes = 0;
    let lineNumber = offset;
    for (; lineNumber <= last; lineNumber += 1) {
      const text = lines[lineNumber - 1]!;
      const line = `${String(lineNumber).padStart(width)}\t${text.length > maxLineLength ? `${text.slice(0, maxLineLength)}… (line cut)` : text}`;
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > textBudgetBytes && out.length > 0) break;
      out.push(line);
    }
    const shownLast = lineNumber - 1;
    if (shownLast < lines.length)
      out.push(
        `(Showing lines ${offset}–${shownLast} of ${lines.length}. Call read with offset=${shownLast + 1} to continue.)`,
      );
    return out.join("\n");
  },
});
