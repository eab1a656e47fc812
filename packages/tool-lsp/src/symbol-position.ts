import type { TextDocumentPositionParams } from "vscode-languageserver-protocol";
import type { OpenDocument } from "./open-document.js";
import { characterInEncoding } from "./position-encoding.js";
import { positionFromSymbol } from "./position-from-symbol.js";

/**
 * The LSP position of `symbol` (its `occurrence`) on 1-based `line` of a synced document, in the
 * server's position encoding. @throws ToolError `invalid_input` quoting the line and the candidates.
 */
export function symbolPosition(
  document: OpenDocument,
  line: number,
  symbol: string,
  occurrence: number | undefined,
): TextDocumentPositionParams {
  const position = positionFromSymbol({ text: document.text, line, symbol, occurrence, shown: document.shown });
  const character = characterInEncoding(position.lineText, position.index, document.session.positionEncoding);
  return { textDocument: { uri: document.uri }, position: { line: position.line, character } };
}

/** An {@link OpenDocument} check that refuses, before any server starts, a `line` + `symbol` the file does not have. */
export function symbolCheck(
  line: number,
  symbol: string,
  occurrence: number | undefined,
): (text: string, shown: string) => void {
  return (text, shown) => void positionFromSymbol({ text, line, symbol, occurrence, shown });
}
