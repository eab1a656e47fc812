import type { TextDocumentPositionParams } from "vscode-languageserver-protocol";
import type { OpenDocument } from "./open-document.js";

/** What an op answers: compact text for the model and its structured twin. */
export interface OpAnswer {
  text: string;
  structured: Record<string, unknown>;
}

/** A request at a position resolved from `line` + `symbol`. */
export interface PositionedRequest {
  /** The run's workdir. */
  workdir: string;
  /** The document, synced to its server. */
  document: OpenDocument;
  /** The 1-based line and the symbol, for messages. */
  line: number;
  symbol: string;
  /** The LSP parameters, in the server's position encoding. */
  params: TextDocumentPositionParams;
}
