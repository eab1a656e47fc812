import * as v from "valibot";

/**
 * `structured` of eval: which kernel ran the cell and how it ended. The cell's output (text, tables,
 * images) is in the content only. A cell that did not end `ok` is an error result, which MCP sends
 * without `structuredContent`; the schema still states every status for hosts that show it.
 */
export const evalOutputSchema = v.object({
  language: v.pipe(v.picklist(["python", "javascript"]), v.description("The kernel's language.")),
  kernel: v.pipe(
    v.string(),
    v.description(
      "The kernel that ran it, e.g. `CPython 3.12.3 at .venv/bin/python` or `Node.js v20.19.0 (a child process)`.",
    ),
  ),
  status: v.pipe(
    v.picklist(["ok", "error", "interrupted", "died", "stopped"]),
    v.description(
      "`ok`: the cell ran to its end (or, with `reset` and no code, a fresh kernel started); `error`: it raised; `interrupted`; `died`: the kernel died during it; `stopped`: a budget stopped it.",
    ),
  ),
  state: v.optional(
    v.pipe(
      v.picklist(["kept", "lost"]),
      v.description(
        "After a cell: `kept` when the kernel and its variables live on, `lost` when the next call starts a fresh kernel. Absent for a reset without code.",
      ),
    ),
  ),
});
