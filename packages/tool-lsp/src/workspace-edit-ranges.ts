import type { Position, Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { splitLines } from "./position-from-symbol.js";

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/** Whether `position` lies in `range`, ends included (a cursor at either end of a name is on it). */
export function rangeContains(range: Range, position: Position): boolean {
  return before(range.start, position) && before(position, range.end);
}

/** The text a single-line range covers (what a message quotes), or its first line's rest. */
export function textOfRange(text: string, range: Range): string {
  const line = splitLines(text)[range.start.line] ?? "";
  const end = range.end.line === range.start.line ? range.end.character : line.length;
  return line.slice(range.start.character, end).slice(0, 80);
}

/** Whether any text edit of `edit` for `uri` covers `position`. */
export function editTouches(edit: WorkspaceEdit, uri: string, position: Position): boolean {
  const ranges: Range[] = [];
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change && change.textDocument?.uri === uri && Array.isArray(change.edits))
      ranges.push(...change.edits.map((item) => item.range));
  }
  const changes = edit.changes?.[uri];
  if (Array.isArray(changes)) ranges.push(...changes.map((item) => item.range));
  return ranges.some((range) => range !== undefined && rangeContains(range, position));
}
