import type { TextDocumentPositionParams } from "vscode-languageserver-protocol";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import type { OpenDocument } from "./open-document.js";
import type { PathFilter } from "./path-filter.js";

/** What an op answers: compact text for the model and its structured twin. */
export interface OpAnswer {
  text: string;
  structured: Record<string, unknown>;
}

/** A request at a position resolved from `line` + `symbol`. */
export interface PositionedRequest {
  /** The run's workdir. */
  workdir: string;
  /** The run's supervisor, to reach the servers of other files an answer names. */
  supervisor: LspSupervisorInstance;
  /** The document, synced to its server. */
  document: OpenDocument;
  /** The 1-based line and the symbol, for messages. */
  line: number;
  symbol: string;
  /** The LSP parameters, in the server's position encoding. */
  params: TextDocumentPositionParams;
}

/** How a paged list op (`references`, `implementation`, `incoming_calls`) narrows its answer. */
export interface ListOptions {
  /** Only places under this folder or matching this glob. */
  filter?: PathFilter;
  /** How many places to skip: the `next` offset of the page before. */
  offset: number;
}
