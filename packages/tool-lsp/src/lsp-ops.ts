/** The ops of `lsp`, shared by its input and its output schema. */
export const LSP_OPS = [
  "status",
  "definition",
  "type_definition",
  "implementation",
  "references",
  "incoming_calls",
  "outgoing_calls",
  "supertypes",
  "subtypes",
  "hover",
  "symbols",
  "diagnostics",
  "code_actions",
  "source",
  "reload",
] as const;

/** One op of `lsp`. */
export type LspOp = (typeof LSP_OPS)[number];
