import { writeFilesAtomically } from "@runbound/runtime-kit";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { applyTextEdits, planWorkspaceEdit, type PlanSettings } from "./plan-workspace-edit.js";

function workdirWith(files: Record<string, string>): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-edit-")));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(workdir, name, ".."), { recursive: true });
    writeFileSync(join(workdir, name), content);
  }
  return workdir;
}

const edit = (line: number, from: number, to: number, newText: string, endLine = line): TextEdit => ({
  range: { start: { line, character: from }, end: { line: endLine, character: to } },
  newText,
});
const settings = (workdir: string, overrides: Partial<PlanSettings> = {}): PlanSettings => ({
  workdir,
  encoding: "utf-16",
  openVersion: () => undefined,
  author: "Language server `fake`",
  ...overrides,
});
const uri = (workdir: string, name: string): string => pathToFileURL(join(workdir, name)).href;

describe("applyTextEdits", () => {
  it("applies edits against the original text, in any order, across CRLF, CR and LF line ends", () => {
    const text = "let a = 1;\r\nlet b = a;\rlet c = a + b;\n";
    const result = applyTextEdits(
      text,
      [edit(2, 12, 13, "bb"), edit(0, 4, 5, "aa"), edit(1, 8, 9, "aa"), edit(2, 8, 9, "aa")],
      "utf-16",
      "s",
      "f",
    );
    expect(result).toBe("let aa = 1;\r\nlet b = aa;\rlet c = aa + bb;\n");
  });

  it("converts UTF-8 and UTF-32 characters: CJK and emoji before the edit", () => {
    const text = 'const 名前 = "😀"; greet(名前);\n';
    const utf8Start = Buffer.byteLength('const 名前 = "😀"; greet(', "utf8");
    expect(applyTextEdits(text, [edit(0, utf8Start, utf8Start + 6, "name")], "utf-8", "s", "f")).toBe(
      'const 名前 = "😀"; greet(name);\n',
    );
    const utf32Start = [...'const 名前 = "😀"; greet('].length;
    expect(applyTextEdits(text, [edit(0, utf32Start, utf32Start + 2, "name")], "utf-32", "s", "f")).toBe(
      'const 名前 = "😀"; greet(name);\n',
    );
  });

  it("a position past the end means the end; overlapping, reversed and shapeless edits are refused", () => {
    expect(applyTextEdits("a\n", [edit(9, 0, 0, "tail")], "utf-16", "s", "f")).toBe("a\ntail");
    expect(() =>
      applyTextEdits("abcdef", [edit(0, 0, 3, "x"), edit(0, 2, 4, "y")], "utf-16", "Language server `fake`", "f.ts"),
    ).toThrow("two edits of `f.ts` overlap");
    expect(() => applyTextEdits("abcdef", [edit(0, 4, 2, "x")], "utf-16", "s", "f.ts")).toThrow(
      "ends before it starts",
    );
    expect(() =>
      applyTextEdits(
        "abc",
        [{ range: { start: { line: -1, character: 0 } }, newText: "x" } as unknown as TextEdit],
        "utf-16",
        "s",
        "f.ts",
      ),
    ).toThrow("has no valid range or text");
  });
});

describe("planWorkspaceEdit", () => {
  it("`changes` become whole-file changes with the text they were computed from", async () => {
    const workdir = workdirWith({ "a.ts": "export const old = 1;\n", "b.ts": "import { old } from './a';\nold;\n" });
    const plan = await planWorkspaceEdit(
      {
        changes: {
          [uri(workdir, "a.ts")]: [edit(0, 13, 16, "fresh")],
          [uri(workdir, "b.ts")]: [edit(0, 9, 12, "fresh"), edit(1, 0, 3, "fresh")],
        },
      },
      settings(workdir),
    );
    expect(plan.files).toEqual([
      { shown: "a.ts", edits: 1 },
      { shown: "b.ts", edits: 2 },
    ]);
    expect(plan.changes).toEqual([
      {
        path: join(workdir, "a.ts"),
        content: "export const fresh = 1;\n",
        expected: "export const old = 1;\n",
        label: "a.ts",
      },
      {
        path: join(workdir, "b.ts"),
        content: "import { fresh } from './a';\nfresh;\n",
        expected: "import { old } from './a';\nold;\n",
        label: "b.ts",
      },
    ]);
  });

  it("documentChanges apply in order: edit, then rename the file, then create and delete", async () => {
    const workdir = workdirWith({ "src/old.ts": "export class Old {}\n", "src/gone.ts": "x\n" });
    const workspaceEdit: WorkspaceEdit = {
      documentChanges: [
        { textDocument: { uri: uri(workdir, "src/old.ts"), version: null }, edits: [edit(0, 13, 16, "Fresh")] },
        { kind: "rename", oldUri: uri(workdir, "src/old.ts"), newUri: uri(workdir, "src/fresh.ts") },
        { kind: "create", uri: uri(workdir, "src/index.ts") },
        {
          textDocument: { uri: uri(workdir, "src/index.ts"), version: null },
          edits: [edit(0, 0, 0, "export * from './fresh';\n")],
        },
        { kind: "delete", uri: uri(workdir, "src/gone.ts") },
      ],
    };
    const plan = await planWorkspaceEdit(workspaceEdit, settings(workdir));
    expect(plan.files).toEqual([
      { shown: "src/fresh.ts", edits: 1, renamedFrom: "src/old.ts" },
      { shown: "src/index.ts", edits: 1, created: true },
      { shown: "src/gone.ts", edits: 0, deleted: true },
    ]);
    await writeFilesAtomically(plan.changes, { workdir });
    expect(existsSync(join(workdir, "src/old.ts"))).toBe(false);
    expect(readFileSync(join(workdir, "src/fresh.ts"), "utf8")).toBe("export class Fresh {}\n");
    expect(readFileSync(join(workdir, "src/index.ts"), "utf8")).toBe("export * from './fresh';\n");
    expect(existsSync(join(workdir, "src/gone.ts"))).toBe(false);
  });

  it("refuses an edit that reaches outside the workdir, directly or through a symlink, naming the file", async () => {
    const outside = workdirWith({ "secret.ts": "const key = 1;\n" });
    const workdir = workdirWith({ "a.ts": "key;\n" });
    symlinkSync(outside, join(workdir, "linked"));
    await expect(
      planWorkspaceEdit({ changes: { [uri(outside, "secret.ts")]: [edit(0, 6, 9, "k")] } }, settings(workdir)),
    ).rejects.toMatchObject({
      code: "outside_workdir",
      message: expect.stringContaining(
        `wants to change \`${join(outside, "secret.ts")}\`, which is outside the working directory, so nothing was changed`,
      ),
    });
    await expect(
      planWorkspaceEdit({ changes: { [uri(workdir, "linked/secret.ts")]: [edit(0, 6, 9, "k")] } }, settings(workdir)),
    ).rejects.toMatchObject({ code: "outside_workdir" });
    expect(readFileSync(join(outside, "secret.ts"), "utf8")).toBe("const key = 1;\n");
  });

  it("refuses an edit made for another version of an open document, and operations it cannot apply", async () => {
    const workdir = workdirWith({ "a.ts": "a\n", "b.ts": "b\n" });
    mkdirSync(join(workdir, "dir"));
    const stale: WorkspaceEdit = {
      documentChanges: [{ textDocument: { uri: uri(workdir, "a.ts"), version: 3 }, edits: [edit(0, 0, 1, "z")] }],
    };
    await expect(planWorkspaceEdit(stale, settings(workdir, { openVersion: () => 4 }))).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("for version 3, but it has version 4"),
    });
    await expect(planWorkspaceEdit(stale, settings(workdir, { openVersion: () => 3 }))).resolves.toMatchObject({
      files: [{ shown: "a.ts", edits: 1 }],
    });
    const onto: WorkspaceEdit = {
      documentChanges: [{ kind: "rename", oldUri: uri(workdir, "a.ts"), newUri: uri(workdir, "b.ts") }],
    };
    await expect(planWorkspaceEdit(onto, settings(workdir))).rejects.toThrow(
      "it renames `a.ts` onto `b.ts`, which exists",
    );
    const directory: WorkspaceEdit = {
      documentChanges: [{ kind: "delete", uri: uri(workdir, "dir"), options: { recursive: true } }],
    };
    await expect(planWorkspaceEdit(directory, settings(workdir))).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("deletes `dir`"),
    });
    const missing: WorkspaceEdit = { changes: { [uri(workdir, "nope.ts")]: [edit(0, 0, 0, "x")] } };
    await expect(planWorkspaceEdit(missing, settings(workdir))).rejects.toThrow(
      "it edits `nope.ts`, which does not exist",
    );
    const notFile: WorkspaceEdit = { changes: { "https://example.com/a.ts": [edit(0, 0, 0, "x")] } };
    await expect(planWorkspaceEdit(notFile, settings(workdir))).rejects.toThrow("is not a file URI");
    expect(readFileSync(join(workdir, "a.ts"), "utf8")).toBe("a\n");
  });
});

describe("applyTextEdits, the edges of lines and edits", () => {
  it("a position on the line just past the last one means the end of the document", () => {
    expect(applyTextEdits("a\nb", [edit(2, 0, 0, "!")], "utf-16", "s", "f")).toBe("a\nb!");
    expect(applyTextEdits("a\nb\n", [edit(2, 0, 0, "c\n")], "utf-16", "s", "f")).toBe("a\nb\nc\n");
  });

  it("a character past the end of its line means the end of that line, before its line end, on every kind of line end", () => {
    expect(applyTextEdits("ab\ncd\nef", [edit(0, 99, 99, "X")], "utf-16", "s", "f")).toBe("abX\ncd\nef");
    expect(applyTextEdits("ab\ncd\nef", [edit(1, 99, 99, "X")], "utf-16", "s", "f")).toBe("ab\ncdX\nef");
    expect(applyTextEdits("ab\r\ncd\r\nef", [edit(1, 99, 99, "X")], "utf-16", "s", "f")).toBe("ab\r\ncdX\r\nef");
    expect(applyTextEdits("ab\rcd\ref", [edit(1, 99, 99, "X")], "utf-16", "s", "f")).toBe("ab\rcdX\ref");
    expect(applyTextEdits("ab\ncd", [edit(1, 99, 99, "X")], "utf-16", "s", "f")).toBe("ab\ncdX");
  });

  it("counts a line's characters from the start of that line in UTF-8", () => {
    expect(applyTextEdits("é = 1;\nab = é;\n", [edit(1, 0, 2, "cd")], "utf-8", "s", "f")).toBe("é = 1;\ncd = é;\n");
    expect(applyTextEdits("é = 1;\nab = é;\n", [edit(1, 5, 7, "e")], "utf-8", "s", "f")).toBe("é = 1;\nab = e;\n");
  });

  it("applies edits that touch without overlapping, and insertions at one place in the order given", () => {
    expect(applyTextEdits("abcdef", [edit(0, 2, 4, "R"), edit(0, 0, 2, "L")], "utf-16", "s", "f")).toBe("LRef");
    expect(applyTextEdits("abcdef", [edit(0, 2, 4, "R"), edit(0, 2, 2, "I")], "utf-16", "s", "f")).toBe("abIRef");
    expect(
      applyTextEdits("abcdef", [edit(0, 3, 3, "X"), edit(0, 3, 3, "Y"), edit(0, 3, 3, "Z")], "utf-16", "s", "f"),
    ).toBe("abcXYZdef");
  });

  it("names the line an edit that ends before it starts begins on, 1-based", () => {
    expect(() =>
      applyTextEdits("a\nb\nabcdef", [edit(2, 4, 2, "x")], "utf-16", "Language server `fake`", "f.ts"),
    ).toThrow(
      "Language server `fake` answered with a workspace edit that cannot be applied: an edit of `f.ts` ends before it starts (line 3). Nothing was changed; try `lsp` `reload` and rename again.",
    );
    expect(() => applyTextEdits("a\nb\nc", [edit(2, 0, 0, "x", 1)], "utf-16", "s", "f.ts")).toThrow(
      "ends before it starts (line 3)",
    );
  });

  it("refuses, as a ToolError, every edit without a whole range of whole non-negative numbers and a text", () => {
    const valid = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const shapeless: unknown[] = [
      null,
      { newText: "x" },
      { range: { end: valid.end }, newText: "x" },
      { range: { start: valid.start }, newText: "x" },
      { range: valid },
      { range: valid, newText: 7 },
      { range: { start: { line: 1.5, character: 0 }, end: valid.end }, newText: "x" },
      { range: { start: { line: 0, character: 0.5 }, end: valid.end }, newText: "x" },
      { range: { start: { line: "0", character: 0 }, end: valid.end }, newText: "x" },
      { range: { start: { line: 0, character: "0" }, end: valid.end }, newText: "x" },
      { range: { start: { line: -1, character: 0 }, end: valid.end }, newText: "x" },
      { range: { start: { line: 0, character: -1 }, end: valid.end }, newText: "x" },
      { range: { start: valid.start, end: { line: 0, character: -1 } }, newText: "x" },
      { range: { start: valid.start, end: { line: 0.5, character: 1 } }, newText: "x" },
    ];
    for (const item of shapeless) {
      let caught: unknown;
      try {
        applyTextEdits("abc\ndef\n", [item as TextEdit], "utf-16", "s", "f.ts");
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(item)).toMatchObject({
        code: "unavailable",
        message: expect.stringContaining("an edit of `f.ts` has no valid range or text"),
      });
    }
  });
});

describe("planWorkspaceEdit, what it is handed", () => {
  it("plans nothing for an edit without changes, including `null` and shapeless `changes`", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    for (const empty of [
      {},
      null,
      undefined,
      { changes: null },
      { changes: "a.ts" },
      { changes: 3 },
      { documentChanges: "a.ts" },
    ]) {
      await expect(
        planWorkspaceEdit(empty as unknown as WorkspaceEdit, settings(workdir)),
        JSON.stringify(empty),
      ).resolves.toStrictEqual({ changes: [], files: [] });
    }
  });

  it("leaves out a file whose edits give back its text", async () => {
    const workdir = workdirWith({ "a.ts": "same\n", "b.ts": "old\n" });
    const plan = await planWorkspaceEdit(
      { changes: { [uri(workdir, "a.ts")]: [edit(0, 0, 4, "same")], [uri(workdir, "b.ts")]: [edit(0, 0, 3, "new")] } },
      settings(workdir),
    );
    expect(plan).toStrictEqual({
      changes: [{ path: join(workdir, "b.ts"), content: "new\n", expected: "old\n", label: "b.ts" }],
      files: [{ shown: "b.ts", edits: 1 }],
    });
  });

  it("refuses a text document without a URI, and edits that are not a list, by name", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    const noUri = { documentChanges: [{ edits: [edit(0, 0, 1, "b")] }] } as unknown as WorkspaceEdit;
    await expect(planWorkspaceEdit(noUri, settings(workdir))).rejects.toThrow(
      "Language server `fake` answered with a workspace edit that cannot be applied: a file is not named by a URI. Nothing was changed",
    );
    const uriOnly = { documentChanges: [{ textDocument: { version: 1 }, edits: [] }] } as unknown as WorkspaceEdit;
    await expect(planWorkspaceEdit(uriOnly, settings(workdir))).rejects.toThrow("a file is not named by a URI");
    const notAList = {
      changes: { [uri(workdir, "a.ts")]: { range: edit(0, 0, 1, "b").range, newText: "b" } },
    } as unknown as WorkspaceEdit;
    await expect(planWorkspaceEdit(notAList, settings(workdir))).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("the edits of `a.ts` are not a list"),
    });
  });

  it("passes on, as they are, path errors other than leaving the workdir", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    symlinkSync("loop", join(workdir, "loop"));
    const looped = { changes: { [uri(workdir, "loop/a.ts")]: [edit(0, 0, 1, "b")] } };
    await expect(planWorkspaceEdit(looped, settings(workdir))).rejects.toMatchObject({ code: "invalid_input" });
    const tooLong = { changes: { [uri(workdir, `${"n".repeat(300)}.ts`)]: [edit(0, 0, 1, "b")] } };
    await expect(planWorkspaceEdit(tooLong, settings(workdir))).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("checks the version only of a document the server has open, and only when the edit names one", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    const versioned = (version: number | null): WorkspaceEdit => ({
      documentChanges: [{ textDocument: { uri: uri(workdir, "a.ts"), version }, edits: [edit(0, 0, 1, "z")] }],
    });
    const asked: string[] = [];
    const notOpen = settings(workdir, { openVersion: (name) => (asked.push(name), undefined) });
    await expect(planWorkspaceEdit(versioned(3), notOpen)).resolves.toMatchObject({
      files: [{ shown: "a.ts", edits: 1 }],
    });
    expect(asked).toEqual([uri(workdir, "a.ts")]);
    await expect(
      planWorkspaceEdit(versioned(null), settings(workdir, { openVersion: () => 4 })),
    ).resolves.toMatchObject({ files: [{ shown: "a.ts", edits: 1 }] });
    await expect(planWorkspaceEdit(versioned(3), settings(workdir, { openVersion: () => 4 }))).rejects.toThrow(
      "Language server `fake` computed the edit of `a.ts` for version 3, but it has version 4: the file changed meanwhile. Nothing was changed; rename again.",
    );
  });

  it("passes on what reading a file that is not a regular one threw", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    mkdirSync(join(workdir, "dir"));
    await expect(
      planWorkspaceEdit({ changes: { [uri(workdir, "dir")]: [edit(0, 0, 0, "x")] } }, settings(workdir)),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("`dir`") });
    await expect(
      planWorkspaceEdit({ documentChanges: [{ kind: "create", uri: uri(workdir, "dir") }] }, settings(workdir)),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });
});

describe("planWorkspaceEdit, file operations", () => {
  const plan = (workdir: string, documentChanges: unknown[]) =>
    planWorkspaceEdit({ documentChanges } as WorkspaceEdit, settings(workdir));

  it("creates a missing file empty, and refuses one that exists unless asked to overwrite or ignore it", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    await expect(plan(workdir, [{ kind: "create", uri: uri(workdir, "new.ts") }])).resolves.toStrictEqual({
      changes: [{ path: join(workdir, "new.ts"), content: "", expected: null, label: "new.ts" }],
      files: [{ shown: "new.ts", edits: 0, created: true }],
    });
    await expect(plan(workdir, [{ kind: "create", uri: uri(workdir, "a.ts") }])).rejects.toThrow(
      "answered with a workspace edit that cannot be applied: it creates `a.ts`, which exists.",
    );
    await expect(
      plan(workdir, [{ kind: "create", uri: uri(workdir, "a.ts"), options: { overwrite: false } }]),
    ).rejects.toThrow("it creates `a.ts`, which exists");
    await expect(
      plan(workdir, [{ kind: "create", uri: uri(workdir, "a.ts"), options: { overwrite: true } }]),
    ).resolves.toStrictEqual({
      changes: [{ path: join(workdir, "a.ts"), content: "", expected: "a\n", label: "a.ts" }],
      files: [{ shown: "a.ts", edits: 0 }],
    });
    await expect(
      plan(workdir, [
        { kind: "create", uri: uri(workdir, "a.ts"), options: { ignoreIfExists: true } },
        { kind: "create", uri: uri(workdir, "b.ts") },
      ]),
    ).resolves.toMatchObject({ files: [{ shown: "b.ts", edits: 0, created: true }] });
    await expect(
      plan(workdir, [{ kind: "create", uri: uri(workdir, "a.ts"), options: { ignoreIfExists: false } }]),
    ).rejects.toThrow("it creates `a.ts`, which exists");
  });

  it("renames a file with the edits made to it before, and refuses a missing source", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    await expect(
      plan(workdir, [{ kind: "rename", oldUri: uri(workdir, "gone.ts"), newUri: uri(workdir, "b.ts") }]),
    ).rejects.toThrow("it renames `gone.ts`, which does not exist");
    await expect(
      plan(workdir, [{ kind: "rename", oldUri: uri(workdir, "a.ts"), newUri: uri(workdir, "b.ts") }]),
    ).resolves.toStrictEqual({
      changes: [
        { path: join(workdir, "a.ts"), content: null, expected: "a\n", label: "a.ts" },
        { path: join(workdir, "b.ts"), content: "a\n", expected: null, label: "b.ts" },
      ],
      files: [{ shown: "b.ts", edits: 0, renamedFrom: "a.ts" }],
    });
  });

  it("renames onto an existing file only when asked to overwrite it, and skips the rename when asked to ignore it", async () => {
    const workdir = workdirWith({ "a.ts": "a\n", "b.ts": "b\n" });
    await expect(
      plan(workdir, [
        { kind: "rename", oldUri: uri(workdir, "a.ts"), newUri: uri(workdir, "b.ts"), options: { overwrite: false } },
      ]),
    ).rejects.toThrow("it renames `a.ts` onto `b.ts`, which exists");
    await expect(
      plan(workdir, [
        { textDocument: { uri: uri(workdir, "a.ts"), version: null }, edits: [edit(0, 0, 1, "A")] },
        { kind: "rename", oldUri: uri(workdir, "a.ts"), newUri: uri(workdir, "b.ts"), options: { overwrite: true } },
      ]),
    ).resolves.toStrictEqual({
      changes: [
        { path: join(workdir, "a.ts"), content: null, expected: "a\n", label: "a.ts" },
        { path: join(workdir, "b.ts"), content: "A\n", expected: "b\n", label: "b.ts" },
      ],
      files: [{ shown: "b.ts", edits: 1, renamedFrom: "a.ts" }],
    });
    await expect(
      plan(workdir, [
        {
          kind: "rename",
          oldUri: uri(workdir, "a.ts"),
          newUri: uri(workdir, "b.ts"),
          options: { ignoreIfExists: true },
        },
      ]),
    ).resolves.toStrictEqual({ changes: [], files: [] });
    await expect(
      plan(workdir, [
        {
          kind: "rename",
          oldUri: uri(workdir, "a.ts"),
          newUri: uri(workdir, "b.ts"),
          options: { ignoreIfExists: false },
        },
      ]),
    ).rejects.toThrow("onto `b.ts`, which exists");
  });

  it("deletes a file, refuses a missing one unless asked to ignore it, and refuses an unknown operation", async () => {
    const workdir = workdirWith({ "a.ts": "a\n" });
    await expect(plan(workdir, [{ kind: "delete", uri: uri(workdir, "a.ts") }])).resolves.toStrictEqual({
      changes: [{ path: join(workdir, "a.ts"), content: null, expected: "a\n", label: "a.ts" }],
      files: [{ shown: "a.ts", edits: 0, deleted: true }],
    });
    await expect(plan(workdir, [{ kind: "delete", uri: uri(workdir, "gone.ts") }])).rejects.toThrow(
      "it deletes `gone.ts`, which does not exist",
    );
    await expect(
      plan(workdir, [{ kind: "delete", uri: uri(workdir, "gone.ts"), options: { ignoreIfNotExists: false } }]),
    ).rejects.toThrow("it deletes `gone.ts`, which does not exist");
    await expect(
      plan(workdir, [{ kind: "delete", uri: uri(workdir, "gone.ts"), options: { ignoreIfNotExists: true } }]),
    ).resolves.toStrictEqual({ changes: [], files: [] });
    await expect(plan(workdir, [{ kind: "move", uri: uri(workdir, "a.ts") }])).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("it has an operation of unknown kind `move`"),
    });
  });
});

describe("planWorkspaceEdit, the file limit", () => {
  const creates = (workdir: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({ kind: "create" as const, uri: uri(workdir, `f${index}.ts`) }));

  it("plans 2000 files", async () => {
    const workdir = workdirWith({});
    const plan = await planWorkspaceEdit({ documentChanges: creates(workdir, 2000) }, settings(workdir));
    expect(plan.files).toHaveLength(2000);
    expect(plan.files[1999]).toStrictEqual({ shown: "f1999.ts", edits: 0, created: true });
  });

  it("refuses a 2001st file for the limit, also when its operation is a delete", async () => {
    const workdir = workdirWith({ "last.ts": "x\n" });
    await expect(
      planWorkspaceEdit(
        { documentChanges: [...creates(workdir, 2000), { kind: "delete", uri: uri(workdir, "last.ts") }] },
        settings(workdir),
      ),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message:
        "Language server `fake` wants to change more than 2000 files; nothing was changed. Rename something with fewer uses, or in smaller steps.",
    });
  });
});
