import type { Location, Position, Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { rangeContains } from "./workspace-edit-ranges.js";

function isPosition(value: unknown): value is Position {
  const position = value as Position | undefined;
  return typeof position?.line === "number" && typeof position.character === "number";
}

function isRange(value: unknown): value is Range {
  const range = value as Range | undefined;
  return isPosition(range?.start) && isPosition(range.end);
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function isEmpty(range: Range): boolean {
  return range.start.line === range.end.line && range.start.character === range.end.character;
}

/** Whether two ranges share a character; an empty range (an insertion) overlaps a range it lies in, ends included. */
function overlaps(a: Range, b: Range): boolean {
  if (isEmpty(a)) return rangeContains(b, a.start);
  if (isEmpty(b)) return rangeContains(a, b.start);
  return before(a.start, b.end) && before(b.start, a.end);
}

/**
 * The text-edit ranges of `edit` by document URI. A reference names a file as it is before the edit,
 * while `documentChanges` may edit a file under the name a rename operation gave it: those edits
 * count for the old name too.
 */
function editRangesByUri(edit: WorkspaceEdit): Map<string, Range[]> {
  const ranges = new Map<string, Range[]>();
  const add = (uri: string, edits: unknown): void => {
    if (!Array.isArray(edits)) return;
    const list = ranges.get(uri) ?? [];
    for (const item of edits as Array<{ range?: unknown }>) if (isRange(item?.range)) list.push(item.range);
    ranges.set(uri, list);
  };
  const renamedFrom = new Map<string, string>();
  for (const change of edit.documentChanges ?? []) {
    if ("kind" in change && change.kind === "rename")
      renamedFrom.set(change.newUri, renamedFrom.get(change.oldUri) ?? change.oldUri);
    else if ("textDocument" in change) {
      const uri = change.textDocument?.uri;
      if (typeof uri !== "string") continue;
      add(uri, change.edits);
      const old = renamedFrom.get(uri);
      if (old !== undefined) add(old, change.edits);
    }
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  return ranges;
}

/**
 * The `references` no text edit of `edit` overlaps: the places a rename would leave with the old name.
 * Malformed locations are ignored (they cannot be shown either).
 */
export function uncoveredReferences(edit: WorkspaceEdit, references: readonly Location[]): Location[] {
  const ranges = editRangesByUri(edit);
  return references.filter((reference) => {
    if (typeof reference?.uri !== "string" || !isRange(reference.range)) return false;
    return !(ranges.get(reference.uri) ?? []).some((range) => overlaps(range, reference.range));
  });
}
