import type { Position, Range, WorkspaceEdit } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { editTouches, rangeContains, textOfRange } from "./workspace-edit-ranges.js";

const position = (line: number, character: number): Position => ({ line, character });
const range = (startLine: number, startCharacter: number, endLine: number, endCharacter: number): Range => ({
  start: position(startLine, startCharacter),
  end: position(endLine, endCharacter),
});

describe("rangeContains", () => {
  it("includes both ends of a range on one line and nothing beyond them", () => {
    const name = range(3, 6, 3, 10);
    expect([5, 6, 8, 10, 11].map((character) => rangeContains(name, position(3, character)))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    expect(rangeContains(name, position(2, 8))).toBe(false);
    expect(rangeContains(name, position(4, 8))).toBe(false);
  });

  it("compares characters only on the first and the last line of a range over several lines", () => {
    const block = range(2, 8, 5, 3);
    expect(rangeContains(block, position(3, 0))).toBe(true);
    expect(rangeContains(block, position(4, 99))).toBe(true);
    expect(rangeContains(block, position(2, 7))).toBe(false);
    expect(rangeContains(block, position(2, 99))).toBe(true);
    expect(rangeContains(block, position(5, 0))).toBe(true);
    expect(rangeContains(block, position(5, 4))).toBe(false);
    expect(rangeContains(block, position(1, 99))).toBe(false);
    expect(rangeContains(block, position(6, 0))).toBe(false);
  });

  it("an empty range holds only its own position", () => {
    const cursor = range(1, 4, 1, 4);
    expect([3, 4, 5].map((character) => rangeContains(cursor, position(1, character)))).toEqual([false, true, false]);
  });
});

describe("textOfRange", () => {
  const text = "const first = 1;\r\nlet renamedThing = first + 2;\nreturn renamedThing;";

  it("quotes what a range on one line covers, on any line end", () => {
    expect(textOfRange(text, range(1, 4, 1, 16))).toBe("renamedThing");
    expect(textOfRange(text, range(0, 6, 0, 11))).toBe("first");
    expect(textOfRange(text, range(2, 7, 2, 19))).toBe("renamedThing");
  });

  it("quotes the rest of the first line of a range over several lines, and at most 80 characters", () => {
    expect(textOfRange(text, range(1, 19, 2, 3))).toBe("first + 2;");
    expect(textOfRange(`x = ${"y".repeat(100)};`, range(0, 4, 0, 105))).toBe("y".repeat(80));
  });

  it("is empty for a line the text does not have", () => {
    expect(textOfRange(text, range(7, 0, 7, 3))).toBe("");
  });
});

describe("editTouches", () => {
  const uri = "file:///w/src/a.ts";
  const other = "file:///w/src/b.ts";
  const at = position(2, 5);
  const touching = { range: range(2, 4, 2, 9), newText: "fresh" };
  const elsewhere = { range: range(7, 0, 7, 5), newText: "fresh" };

  it("finds a text edit of `changes` for the file that covers the position", () => {
    expect(editTouches({ changes: { [uri]: [elsewhere, touching] } }, uri, at)).toBe(true);
    expect(editTouches({ changes: { [uri]: [elsewhere] } }, uri, at)).toBe(false);
    expect(editTouches({ changes: { [other]: [touching] } }, uri, at)).toBe(false);
  });

  it("finds a text edit of `documentChanges` for the file, passing over other files and file operations", () => {
    const forFile = (edits: unknown[], documentUri = uri): WorkspaceEdit["documentChanges"] =>
      [
        { kind: "create", uri: "file:///w/src/new.ts" },
        { textDocument: { uri: documentUri, version: 3 }, edits },
      ] as WorkspaceEdit["documentChanges"];
    expect(editTouches({ documentChanges: forFile([elsewhere, touching]) }, uri, at)).toBe(true);
    expect(editTouches({ documentChanges: forFile([elsewhere]) }, uri, at)).toBe(false);
    expect(editTouches({ documentChanges: forFile([touching], other) }, uri, at)).toBe(false);
  });

  it("looks at both `documentChanges` and `changes`", () => {
    expect(
      editTouches(
        {
          documentChanges: [{ textDocument: { uri, version: 1 }, edits: [elsewhere] }],
          changes: { [uri]: [touching] },
        },
        uri,
        at,
      ),
    ).toBe(true);
    expect(
      editTouches(
        {
          documentChanges: [{ textDocument: { uri, version: 1 }, edits: [touching] }],
          changes: { [uri]: [elsewhere] },
        },
        uri,
        at,
      ),
    ).toBe(true);
  });

  it("is false, without throwing, for an empty edit and for shapeless parts a server may send", () => {
    expect(editTouches({}, uri, at)).toBe(false);
    const shapeless = {
      documentChanges: [
        { textDocument: null, edits: [touching] },
        { textDocument: { uri }, edits: "not a list" },
        { textDocument: { uri }, edits: [{ newText: "no range" }] },
      ],
      changes: { [uri]: "not a list" },
    } as unknown as WorkspaceEdit;
    expect(editTouches(shapeless, uri, at)).toBe(false);
  });
});
