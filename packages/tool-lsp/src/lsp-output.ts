import * as v from "valibot";
import { LSP_OPS } from "./lsp-ops.js";

const text = (description: string) => v.pipe(v.string(), v.description(description));
const number = (description: string) => v.pipe(v.number(), v.description(description));
const rows = (description: string) => v.pipe(v.array(v.string()), v.description(description));

/** A server of the table at one project root, as `status` reports it. */
const serverEntry = v.object({
  server: text("The server's id, e.g. `typescript`."),
  root: text("The project root, relative to the workdir."),
  state: v.pipe(
    v.picklist(["starting", "running", "indexing", "stopped", "crashed", "unresponsive", "broken"]),
    v.description("The server's state at that root."),
  ),
  detail: text("One line with the details (pid, memory, progress, crash reason, stderr)."),
  pid: v.optional(number("The process id while one runs.")),
  rssKiB: v.optional(number("Resident memory of its process group in KiB, when known.")),
});

/** One project checked by `diagnostics` over `*` or `<directory>/*`. */
const projectReport = v.object({
  root: text("The project root, relative to the workdir."),
  server: text("The server whose checker ran, e.g. `typescript`."),
  checker: text("The checker's command line, e.g. `tsc --noEmit`."),
  state: v.pipe(
    v.picklist(["checked", "unreadable", "timed_out", "not_started", "not_found"]),
    v.description("`checked`, or why the project was not: output not understood, timed out, not started, not found."),
  ),
  errors: number("Errors it reported (0 unless checked)."),
  warnings: number("Warnings it reported (0 unless checked)."),
  rows: rows("The errors and warnings as `path:line: severity [code] message` rows, bounded."),
});

/**
 * `structured` of lsp: one object for every op (an MCP output schema cannot be a union at its
 * root), with `op` always there and each other field present for the ops its description names.
 * The list fields hold the rows the text shows, already bounded.
 */
export const lspOutputSchema = v.object({
  op: v.pipe(v.picklist(LSP_OPS), v.description("The op answered.")),
  total: v.optional(
    number(
      "How many the op found (places, locations, calls, types, symbols, code actions), or for `source` the file's lines; may exceed the rows shown.",
    ),
  ),
  matched: v.optional(number("references / implementation / incoming_calls: places `path` kept, of `total`.")),
  offset: v.optional(number("references / implementation / incoming_calls: the page's first place among `matched`.")),
  next: v.optional(
    number("references / implementation / incoming_calls: the `offset` of the next page, when there is one."),
  ),
  places: v.optional(
    v.pipe(
      v.array(
        v.object({
          path: text("Workdir-relative path, or the absolute path of a file outside the workdir."),
          line: number("1-based line."),
          in: v.optional(text("The symbol the place lies in, e.g. `Square.area`.")),
          source: v.optional(text("The source line, trimmed.")),
        }),
      ),
      v.description(
        "references / implementation / incoming_calls: the page's places, grouped by file (empty for `outgoing_calls` at no callable).",
      ),
    ),
  ),
  locations: v.optional(
    v.pipe(
      v.array(
        v.object({
          path: text("Workdir-relative path, or the absolute path of a file outside the workdir."),
          line: number("1-based line."),
          source: v.optional(text("The source line, trimmed; absent when the file could not be read.")),
        }),
      ),
      v.description("definition / type_definition: where the symbol is defined."),
    ),
  ),
  calls: v.optional(rows("outgoing_calls: `path:line → callee (path:line): source` per call made.")),
  types: v.optional(rows("supertypes / subtypes: `kind Name — path:line: source` per type.")),
  actions: v.optional(rows("code_actions: each action's title with its kind, preferred and disabled marks.")),
  hover: v.optional(
    v.pipe(
      v.nullable(v.string()),
      v.description("hover: the signature and doc comment (markdown, bounded), or null when the server had none."),
    ),
  ),
  symbols: v.optional(rows("symbols: the outline of `file`, or the matches of `query`, one row each.")),
  deeper: v.optional(number("symbols of a file: symbols below the depth shown.")),
  complete: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        "diagnostics: false when the server gave no diagnostics for the file, or when a project was not checked, cut or left out.",
      ),
    ),
  ),
  diagnostics: v.optional(rows("diagnostics of one file: its errors and warnings, most important first.")),
  scope: v.optional(text("diagnostics over `*` or `<directory>/*`: the directory checked, relative to the workdir.")),
  projects: v.optional(
    v.pipe(v.array(projectReport), v.description("diagnostics over `*` or `<directory>/*`: each project checked.")),
  ),
  leftOut: v.optional(
    rows("diagnostics over `*` or `<directory>/*`: project roots over the per-call limit, not checked."),
  ),
  file: v.optional(text("status of a file, source: the file, relative to the workdir (absolute outside it).")),
  state: v.optional(
    text(
      "status of a file: the server's state there, or `no root marker`, `binary not found`, `no server`, `not started`.",
    ),
  ),
  entry: v.optional(v.pipe(serverEntry, v.description("status of a file: the server serving it."))),
  entries: v.optional(
    v.pipe(v.array(serverEntry), v.description("status: every server started in this run, per project root.")),
  ),
  projectTrusted: v.optional(
    v.pipe(v.boolean(), v.description("status: whether programs inside the working directory may run.")),
  ),
  untrusted: v.optional(rows("status, when the project is not trusted: project programs passed over.")),
  line: v.optional(number("source: the first line shown.")),
  endLine: v.optional(number("source: the last line shown.")),
  lines: v.optional(rows("source: the lines shown, each `number  text`.")),
  server: v.optional(text("reload: the server restarted.")),
  root: v.optional(text("reload: its project root, relative to the workdir.")),
  pid: v.optional(number("reload: the new server's process id.")),
});
