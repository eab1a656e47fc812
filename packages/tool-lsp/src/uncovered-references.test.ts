import type { Location, Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { uncoveredReferences } from "./uncovered-references.js";

const range = (line: number, from: number, to: number): Range => ({
  start: { line, character: from },
  end: { line, character: to },
});
const at = (uri: string, line: number, from: number, to: number): Location => ({ uri, range: range(line, from, to) });
const a = "file:///w/a.ts";
const b = "file:///w/b.ts";

describe("uncoveredReferences", () => {
  it("keeps the references no edit of their file overlaps", () => {
    const edit: WorkspaceEdit = { changes: { [a]: [{ range: range(0, 16, 21), newText: "salute" }] } };
    expect(uncoveredReferences(edit, [at(a, 0, 16, 21), at(a, 2, 4, 9), at(b, 0, 16, 21)])).toEqual([
      at(a, 2, 4, 9),
      at(b, 0, 16, 21),
    ]);
  });

  it("counts an edit that overlaps a reference in part (a prefix or suffix added to the name), but not one that only touches it", () => {
    const edit: WorkspaceEdit = {
      changes: {
        [a]: [
          { range: range(0, 2, 7), newText: "x: salute" },
          { range: range(1, 0, 4), newText: "" },
        ],
      },
    };
    expect(uncoveredReferences(edit, [at(a, 0, 4, 9), at(a, 1, 4, 9)])).toEqual([at(a, 1, 4, 9)]);
  });

  it("counts an insertion inside or at either end of a reference", () => {
    const edit: WorkspaceEdit = { changes: { [a]: [{ range: range(0, 4, 4), newText: "new" }] } };
    expect(uncoveredReferences(edit, [at(a, 0, 4, 9), at(a, 0, 0, 4), at(a, 0, 5, 9)])).toEqual([at(a, 0, 5, 9)]);
  });

  it("reads the text edits of documentChanges, under the file's old name when a rename operation moved it", () => {
    const moved = "file:///w/moved.ts";
    const edit: WorkspaceEdit = {
      documentChanges: [
        { kind: "rename", oldUri: b, newUri: moved },
        { textDocument: { uri: moved, version: null }, edits: [{ range: range(3, 0, 5), newText: "salute" }] },
        { textDocument: { uri: a, version: 2 }, edits: [{ range: range(0, 0, 5), newText: "salute" }] },
      ],
    };
    expect(uncoveredReferences(edit, [at(b, 3, 0, 5), at(a, 0, 0, 5), at(a, 1, 0, 5)])).toEqual([at(a, 1, 0, 5)]);
  });

  it("ignores malformed references and edits", () => {
    const edit = {
      changes: {
        [a]: [
          { range: null, newText: "x" },
          { range: range(0, 0, 5), newText: "salute" },
        ],
      },
    } as unknown as WorkspaceEdit;
    const references = [null, { uri: 3, range: range(0, 0, 5) }, { uri: a }, at(a, 0, 0, 5)] as unknown as Location[];
    expect(uncoveredReferences(edit, references)).toEqual([]);
  });
});
