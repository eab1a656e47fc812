import { writeFilesAtomically } from "@runbound/tool-kit";
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

const edit = (line: number, from: number, to: number, newText: string, endLine = line): TextEdit => ({ range: { start: { line, character: from }, end: { line: endLine, character: to } }, newText });
const settings = (workdir: string, overrides: Partial<PlanSettings> = {}): PlanSettings => ({ workdir, encoding: "utf-16", openVersion: () => undefined, author: "Language server `fake`", ...overrides });
const uri = (workdir: string, name: string): string => pathToFileURL(join(workdir, name)).href;

describe("applyTextEdits", () => {
  it("applies edits against the original text, in any order, across CRLF, CR and LF line ends", () => {
    const text = "let a = 1;\r\nlet b = a;\rlet c = a + b;\n";
    const result = applyTextEdits(text, [edit(2, 12, 13, "bb"), edit(0, 4, 5, "aa"), edit(1, 8, 9, "aa"), edit(2, 8, 9, "aa")], "utf-16", "s", "f");
    expect(result).toBe("let aa = 1;\r\nlet b = aa;\rlet c = aa + bb;\n");
  });

  it("converts UTF-8 and UTF-32 characters: CJK and emoji before the edit", () => {
    const text = "const 名前 = \"😀\"; greet(名前);\n";
    const utf8Start = Buffer.byteLength('const 名前 = "😀"; greet(', "utf8");
    expect(applyTextEdits(text, [edit(0, utf8Start, utf8Start + 6, "name")], "utf-8", "s", "f")).toBe('const 名前 = "😀"; greet(name);\n');
    const utf32Start = [...'const 名前 = "😀"; greet('].length;
    expect(applyTextEdits(text, [edit(0, utf32Start, utf32Start + 2, "name")], "utf-32", "s", "f")).toBe('const 名前 = "😀"; greet(name);\n');
  });

  it("a position past the end means the end; overlapping, reversed and shapeless edits are refused", () => {
    expect(applyTextEdits("a\n", [edit(9, 0, 0, "tail")], "utf-16", "s", "f")).toBe("a\ntail");
    expect(() => applyTextEdits("abcdef", [edit(0, 0, 3, "x"), edit(0, 2, 4, "y")], "utf-16", "Language server `fake`", "f.ts")).toThrow("two edits of `f.ts` overlap");
    expect(() => applyTextEdits("abcdef", [edit(0, 4, 2, "x")], "utf-16", "s", "f.ts")).toThrow("ends before it starts");
    expect(() => applyTextEdits("abc", [{ range: { start: { line: -1, character: 0 } }, newText: "x" } as unknown as TextEdit], "utf-16", "s", "f.ts")).toThrow("has no valid range or text");
  });
});

describe("planWorkspaceEdit", () => {
  it("`changes` become whole-file changes with the text they were computed from", async () => {
    const workdir = workdirWith({ "a.ts": "export const old = 1;\n", "b.ts": "import { old } from './a';\nold;\n" });
    const plan = await planWorkspaceEdit({ changes: { [uri(workdir, "a.ts")]: [edit(0, 13, 16, "fresh")], [uri(workdir, "b.ts")]: [edit(0, 9, 12, "fresh"), edit(1, 0, 3, "fresh")] } }, settings(workdir));
    expect(plan.files).toEqual([{ shown: "a.ts", edits: 1 }, { shown: "b.ts", edits: 2 }]);
    expect(plan.changes).toEqual([
      { path: join(workdir, "a.ts"), content: "export const fresh = 1;\n", expected: "export const old = 1;\n", label: "a.ts" },
      { path: join(workdir, "b.ts"), content: "import { fresh } from './a';\nfresh;\n", expected: "import { old } from './a';\nold;\n", label: "b.ts" },
    ]);
  });

  it("documentChanges apply in order: edit, then rename the file, then create and delete", async () => {
    const workdir = workdirWith({ "src/old.ts": "export class Old {}\n", "src/gone.ts": "x\n" });
    const workspaceEdit: WorkspaceEdit = {
      documentChanges: [
        { textDocument: { uri: uri(workdir, "src/old.ts"), version: null }, edits: [edit(0, 13, 16, "Fresh")] },
        { kind: "rename", oldUri: uri(workdir, "src/old.ts"), newUri: uri(workdir, "src/fresh.ts") },
        { kind: "create", uri: uri(workdir, "src/index.ts") },
        { textDocument: { uri: uri(workdir, "src/index.ts"), version: null }, edits: [edit(0, 0, 0, "export * from './fresh';\n")] },
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
    await expect(planWorkspaceEdit({ changes: { [uri(outside, "secret.ts")]: [edit(0, 6, 9, "k")] } }, settings(workdir))).rejects.toMatchObject({ code: "outside_workdir", message: expect.stringContaining(`wants to change \`${join(outside, "secret.ts")}\`, which is outside the working directory, so nothing was changed`) });
    await expect(planWorkspaceEdit({ changes: { [uri(workdir, "linked/secret.ts")]: [edit(0, 6, 9, "k")] } }, settings(workdir))).rejects.toMatchObject({ code: "outside_workdir" });
    expect(readFileSync(join(outside, "secret.ts"), "utf8")).toBe("const key = 1;\n");
  });

  it("refuses an edit made for another version of an open document, and operations it cannot apply", async () => {
    const workdir = workdirWith({ "a.ts": "a\n", "b.ts": "b\n" });
    mkdirSync(join(workdir, "dir"));
    const stale: WorkspaceEdit = { documentChanges: [{ textDocument: { uri: uri(workdir, "a.ts"), version: 3 }, edits: [edit(0, 0, 1, "z")] }] };
    await expect(planWorkspaceEdit(stale, settings(workdir, { openVersion: () => 4 }))).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("for version 3, but it has version 4") });
    await expect(planWorkspaceEdit(stale, settings(workdir, { openVersion: () => 3 }))).resolves.toMatchObject({ files: [{ shown: "a.ts", edits: 1 }] });
    const onto: WorkspaceEdit = { documentChanges: [{ kind: "rename", oldUri: uri(workdir, "a.ts"), newUri: uri(workdir, "b.ts") }] };
    await expect(planWorkspaceEdit(onto, settings(workdir))).rejects.toThrow("it renames `a.ts` onto `b.ts`, which exists");
    const directory: WorkspaceEdit = { documentChanges: [{ kind: "delete", uri: uri(workdir, "dir"), options: { recursive: true } }] };
    await expect(planWorkspaceEdit(directory, settings(workdir))).rejects.toMatchObject({ code: "unavailable", message: expect.stringContaining("deletes `dir`") });
    const missing: WorkspaceEdit = { changes: { [uri(workdir, "nope.ts")]: [edit(0, 0, 0, "x")] } };
    await expect(planWorkspaceEdit(missing, settings(workdir))).rejects.toThrow("it edits `nope.ts`, which does not exist");
    const notFile: WorkspaceEdit = { changes: { "https://example.com/a.ts": [edit(0, 0, 0, "x")] } };
    await expect(planWorkspaceEdit(notFile, settings(workdir))).rejects.toThrow("is not a file URI");
    expect(readFileSync(join(workdir, "a.ts"), "utf8")).toBe("a\n");
  });
});
