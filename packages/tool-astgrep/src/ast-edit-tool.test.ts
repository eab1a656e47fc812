import { type AtomicWriteFileSystem } from "@runbound/runtime-kit";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "./index.js";

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

async function runIn(files: Record<string, string>, fileOperations?: Partial<AtomicWriteFileSystem>) {
  workspace = await createTempWorkspace(files);
  const parser = createAstGrepParser(fileOperations === undefined ? {} : { fileOperations });
  const run = createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, parser],
      [Workdir, workspace.dir],
    ],
  });
  const read = (path: string) => readFile(join(workspace!.dir, path), "utf8");
  return { run, read, parser, dir: workspace.dir };
}

const dart = `void cleanup() {
  dispose(a);
  dispose(  b  );
}
`;

describe("ast_edit + resolve", () => {
  it("stages without writing, previews, then accept writes and reports through ctx.wrote", async () => {
    const { run, read, dir } = await runIn({ "lib/a.dart": dart, "lib/b.dart": "void f() {\n  dispose(z);\n}\n" });
    const staged = await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    const text = resultText(staged);
    expect(text).toMatch(/^\(proposed\) 3 replacements in 2 files/);
    expect(text).toContain('call resolve with edit_id "edit_1"');
    expect(text).toContain("lib/a.dart:2\n-   dispose(a);\n+   a.dispose();");
    expect(await read("lib/a.dart")).toBe(dart);
    expect(run.written).toEqual([]);

    const accepted = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultText(accepted)).toContain("wrote 3 replacements in 2 files");
    expect(await read("lib/a.dart")).toBe("void cleanup() {\n  a.dispose();\n  b.dispose();\n}\n");
    expect(await read("lib/b.dart")).toBe("void f() {\n  z.dispose();\n}\n");
    expect(run.written.sort()).toEqual([join(dir, "lib/a.dart"), join(dir, "lib/b.dart")]);
    expect((await readdir(join(dir, "lib"))).sort()).toEqual(["a.dart", "b.dart"]);
  });

  it("substitutes $$$ captures with their separators, keeps indentation and never interprets $& in code", async () => {
    const source = "function f() {\n  if (ok) {\n    run(\n      first,\n      $&second,\n    );\n  }\n}\n";
    const { run, read } = await runIn({ "a.ts": source });
    await run.call("ast_edit", { pattern: "run($$$ARGS)", rewrite: "await go(\n  $$$ARGS\n)" });
    await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(await read("a.ts")).toBe(
      "function f() {\n  if (ok) {\n    await go(\n      first,\n      $&second,\n    );\n  }\n}\n",
    );
  });

  it("reports overlapping matches instead of dropping them silently", async () => {
    const { run, read } = await runIn({ "a.py": "wrap(wrap(x))\n" });
    const text = resultText(await run.call("ast_edit", { pattern: "wrap($A)", rewrite: "box($A)" }));
    expect(text).toMatch(/^\(proposed\) 1 replacement in 1 file/);
    expect(text).toContain("1 overlapping match was NOT rewritten");
    expect(text).toContain("a.py:1 (inside the match at line 1)");
    await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(await read("a.py")).toBe("box(wrap(x))\n");
  });

  it("rejects the whole change, naming the files, when a file changed after staging", async () => {
    const { run, read, dir } = await runIn({ "a.dart": dart, "b.dart": dart });
    await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    await writeFile(join(dir, "b.dart"), `${dart}// edited\n`);
    const result = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultErrorCode(result)).toBe("conflict");
    expect(resultText(result)).toContain("`b.dart`");
    expect(resultText(result)).not.toContain("`a.dart`");
    expect(await read("a.dart")).toBe(dart);
    expect(run.written).toEqual([]);
    expect(resultErrorCode(await run.call("resolve", { edit_id: "edit_1", action: "accept" }))).toBe("not_found");
  });

  it("leaves no partial change when a write fails mid-commit, and keeps the edit pending", async () => {
    let failNext = true;
    const failing: Partial<AtomicWriteFileSystem> = {
      rename: async (from, to) => {
        if (to.endsWith("c.dart") && failNext) {
          failNext = false;
          throw Object.assign(new Error("EIO: injected failure"), { code: "EIO" });
        }
        return rename(from, to);
      },
    };
    const { run, read, dir } = await runIn({ "a.dart": dart, "b.dart": dart, "c.dart": dart }, failing);
    await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    const failed = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toContain("injected failure");
    expect(resultText(failed)).toContain("every file was restored");
    expect(resultText(failed)).toContain("The edit is still pending");
    for (const name of ["a.dart", "b.dart", "c.dart"]) expect(await read(name)).toBe(dart);
    expect((await readdir(dir)).sort()).toEqual(["a.dart", "b.dart", "c.dart"]);
    expect(run.written).toEqual([]);

    const retried = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(retried.isError).toBeUndefined();
    for (const name of ["a.dart", "b.dart", "c.dart"]) expect(await read(name)).toContain("a.dispose();");
  });

  it("removes every temporary file when writing one of them fails before any rename", async () => {
    let writes = 0;
    const failing: Partial<AtomicWriteFileSystem> = {
      writeFile: async (path, content) => {
        writes += 1;
        if (writes === 2) throw Object.assign(new Error("ENOSPC: injected full disk"), { code: "ENOSPC" });
        return writeFile(path, content);
      },
    };
    const { run, read, dir } = await runIn({ "a.dart": dart, "b.dart": dart }, failing);
    await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    const failed = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultText(failed)).toContain("injected full disk");
    expect(await read("a.dart")).toBe(dart);
    expect(await read("b.dart")).toBe(dart);
    expect((await readdir(dir)).sort()).toEqual(["a.dart", "b.dart"]);
  });

  it("discard drops the change; a second resolve and an unknown id are clear errors", async () => {
    const { run, read } = await runIn({ "a.dart": dart });
    await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    const discarded = await run.call("resolve", { edit_id: "edit_1", action: "discard" });
    expect(resultText(discarded)).toContain("Discarded edit_1");
    expect(await read("a.dart")).toBe(dart);
    const again = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultErrorCode(again)).toBe("not_found");
    expect(resultText(again)).toContain("already discarded");
    const unknown = await run.call("resolve", { edit_id: "edit_9", action: "accept" });
    expect(resultErrorCode(unknown)).toBe("not_found");
    expect(resultText(unknown)).toContain("no staged edit `edit_9`");
  });

  it("staged edits belong to the parser instance of the run", async () => {
    const { run, dir } = await runIn({ "a.dart": dart });
    await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$X.dispose()" });
    const otherRun = createFakeRun({
      plugins: [astGrepPlugin],
      resources: [
        [AstGrepParser, createAstGrepParser()],
        [Workdir, dir],
      ],
    });
    expect(resultErrorCode(await otherRun.call("resolve", { edit_id: "edit_1", action: "accept" }))).toBe("not_found");
  });

  it("refuses a rewrite using a metavariable the pattern does not capture", async () => {
    const { run } = await runIn({ "a.dart": dart });
    const result = await run.call("ast_edit", { pattern: "dispose($X)", rewrite: "$Y.dispose()" });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("`$Y`");
  });

  it("warns when the rewrite only leaves a closing brace missing (a MISSING node, no ERROR node)", async () => {
    const { run } = await runIn({ "a.js": "function f() {\n  foo(1);\n}\n" });
    const text = resultText(
      await run.call("ast_edit", { pattern: "function $F() { $$$B }", rewrite: "function $F() { $$$B" }),
    );
    expect(text).toContain("Warning: `a.js` would have 1 syntax errors after the rewrite (0 before)");
  });

  it("leaves a list's trailing comma out of a $$$ capture, so `g($$$A, c)` gives no `,,`", async () => {
    const { run, read } = await runIn({ "a.ts": "foo(a, b,);\n" });
    const text = resultText(await run.call("ast_edit", { pattern: "foo($$$A)", rewrite: "foo($$$A, c)" }));
    expect(text).not.toContain("Warning");
    await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(await read("a.ts")).toBe("foo(a, b, c);\n");
  });

  it("keeps a CRLF file CRLF and shows its preview without carriage returns", async () => {
    const { run, read } = await runIn({ "a.py": "def f():\r\n    if x:\r\n        foo(1)\r\n" });
    const text = resultText(await run.call("ast_edit", { pattern: "foo($A)", rewrite: "bar(\n    $A\n)" }));
    expect(text).not.toContain("\r");
    expect(text).toContain("a.py:3\n-         foo(1)\n+         bar(\n+             1\n+         )");
    await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(await read("a.py")).toBe("def f():\r\n    if x:\r\n        bar(\r\n            1\r\n        )\r\n");
  });

  it("previews a change in a minified line as a window around it", async () => {
    const minified = `${Array.from({ length: 3000 }, (_, index) => `x${index}=${index}`).join(";")};foo(1);\n`;
    const { run } = await runIn({ "min.js": minified });
    const text = resultText(await run.call("ast_edit", { pattern: "foo($A)", rewrite: "bar($A)" }));
    expect(text).toMatch(/min\.js:1\n- …[^\n]*foo\(1\);\n\+ …[^\n]*bar\(1\);/);
    expect(text).not.toContain("not shown");
  });

  it("warns when the rewrite would introduce syntax errors", async () => {
    const { run } = await runIn({ "a.py": "call(1)\n" });
    const text = resultText(await run.call("ast_edit", { pattern: "call($A)", rewrite: "call($A" }));
    expect(text).toContain("Warning: `a.py` would have");
  });
});
