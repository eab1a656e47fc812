import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { useWriteRun } from "./test-support/write-run.js";

const available = realProgramsAvailable(["typescript-language-server", "pyright-langserver", "gopls"]);
// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

/**
 * The files a write breaks without touching them: callers the run never opened, in the same
 * package, in another package, and two imports away — what the project's own checker reports.
 */
describe.runIf(available)("diagnostics on write name the callers a write broke, in files the run never opened", () => {
  const suite = useWriteRun("affected");
  const { put, lsp, readText } = suite;

  it(
    "TypeScript: importers and their importers are checked through tsserver, and their repair reported",
    { timeout: slow },
    async () => {
      const util = "ts/src/util.ts";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in ts/src/util.ts");
      const original = await readText(util);

      const broken = await put(util, original.replace("label(name: string)", "label(name: string, times: number)"));
      expect(broken).toContain("ts/src/util.ts: no new errors or warnings.");
      expect(broken).toContain(
        "ts/src/caller.ts: 2 errors introduced by this write so far (not written; changed with this write):",
      );
      expect(broken).toContain("ts/src/caller.ts:3: error typescript 2554: Expected 2 arguments, but got 1.");
      expect(broken).toContain(
        "`typescript` checked 2 files that import `ts/src/util.ts` (directly or through others): 1 changed.",
      );
      expect(broken).not.toContain("unrelated");

      // A changed return type breaks a file two imports away, which never names util.ts.
      const retyped = await put(
        util,
        original.replace(
          "label(name: string): string {\n  return `${name}!`;",
          "label(name: string): number {\n  return name.length;",
        ),
      );
      expect(retyped).toContain("ts/src/caller.ts: resolved 2 diagnostics (not written; changed with this write):");
      expect(retyped).toContain(
        "ts/src/indirect.ts: 1 error introduced by this write so far (not written; changed with this write):",
      );
      expect(retyped).toMatch(
        /ts\/src\/indirect\.ts:3: error typescript 2339: Property 'length' does not exist on type 'number'\./,
      );

      const fixed = await put(util, original);
      expect(fixed).toContain("ts/src/indirect.ts: resolved 1 diagnostic (not written; changed with this write):");
      expect(fixed).not.toContain("introduced");
    },
  );

  it(
    'TypeScript: what `diagnostics` "*" reported is the baseline, so a later write to that file shows only what is new',
    { timeout: slow },
    async () => {
      const legacy = "ts/src/legacy.ts";
      const text = 'export const count: number = "many";\n';
      // Written outside the run, as a checkout would: the run has never seen the file.
      await writeFile(join(suite.workdir, legacy), text);
      const project = await lsp({ op: "diagnostics", file: "ts/*" });
      expect(project).toContain("ts/src/legacy.ts:1: error TS2322");
      const touched = await put(legacy, `${text}export const more = 1;\n`);
      expect(touched).toContain("ts/src/legacy.ts: no new errors or warnings.");
      expect(touched).not.toContain("first check");
    },
  );

  it(
    "Python: pyright re-checks the callers in workspace mode and reports them, then their repair",
    { timeout: slow },
    async () => {
      const util = "python/pkg/util.py";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in python/pkg/util.py");
      const original = await readText(util);
      // The caller is open in the server from here on: its next pull must reflect the callee's change.
      expect(await lsp({ op: "diagnostics", file: "python/pkg/caller.py" })).toContain(
        "No errors or warnings in python/pkg/caller.py",
      );

      const broken = await put(util, original.replace("def label(name: str)", "def label(name: str, times: int)"));
      expect(broken).toContain("python/pkg/util.py: no new errors or warnings.");
      expect(broken).toContain(
        "python/pkg/caller.py: 2 errors introduced by this write so far (not written; changed with this write):",
      );
      expect(broken).not.toContain("first check");
      expect(broken).toMatch(
        /python\/pkg\/caller\.py:3: error Pyright reportCallIssue: Argument missing for parameter "times"/,
      );
      // The importer that uses the changed function is asked about; the server's own re-check covers the rest.
      expect(broken).toContain("`python` checked the 1 file that imports `python/pkg/util.py`: 1 file changed.");
      expect(broken).not.toContain("unrelated");
      // The caller's diagnostics asked for right after the write are the new ones, not those of the text before it.
      expect(await lsp({ op: "diagnostics", file: "python/pkg/caller.py" })).toMatch(
        /^2 errors, 0 warnings in python\/pkg\/caller\.py/,
      );

      const fixed = await put(util, original);
      expect(fixed).toContain("python/pkg/caller.py: resolved 2 diagnostics (not written; changed with this write):");
      expect(fixed).not.toContain("introduced");
    },
  );

  it(
    "Python: a change inside a function whose return type is declared is not asked about in its importers",
    { timeout: slow },
    async () => {
      const util = "python/pkg/util.py";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in python/pkg/util.py");
      const original = await readText(util);
      // The changed line names `label`, which the caller uses; but callers see only the declared `-> str`.
      const broken = await put(util, original.replace('    return name + "!"', "    return label"));
      expect(broken).toMatch(/python\/pkg\/util\.py: 1 error introduced by this write so far:/);
      expect(broken).not.toContain("checked the 1 file that imports");
      expect(broken).toContain(
        "The 1 file that imports it cannot see this change (only comments, or the body of a function whose return type is declared, changed): `python`'s own re-check covers it.",
      );
      expect(broken).not.toContain("caller.py");

      const fixed = await put(util, original);
      expect(fixed).toContain("python/pkg/util.py: resolved 1 diagnostic");
      expect(fixed).not.toContain("checked the 1 file that imports");
    },
  );

  it(
    "Go: gopls diagnoses the packages that import the changed one; `diagnostics` of a caller is never from before the write",
    { timeout: slow },
    async () => {
      const util = "go/util/util.go";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in go/util/util.go");
      const original = await readText(util);

      const broken = await put(
        util,
        original.replace("func Label(name string) string {", "func Label(name string, times int) string {"),
      );
      expect(broken).toContain("go/util/util.go: no new errors or warnings.");
      expect(broken).toMatch(
        /go\/render\/render\.go: 1 error introduced by this write so far \(not written; changed with this write\):\n {2}go\/render\/render\.go:7: error .*not enough arguments in call to util\.Label/,
      );
      expect(broken).toMatch(
        /go\/cmd\/report\/main\.go: 1 error introduced by this write so far \(not written; changed with this write\):\n {2}go\/cmd\/report\/main\.go:10: error .*not enough arguments in call to util\.Label/,
      );
      expect(broken).toContain("`go` re-checked the packages that depend on the written files: 2 files changed.");
      expect(await lsp({ op: "diagnostics", file: "go/render/render.go" })).toMatch(
        /^1 error, 0 warnings in go\/render\/render\.go/,
      );

      const fixed = await put(util, original);
      expect(fixed).toContain("go/render/render.go: resolved 1 diagnostic (not written; changed with this write):");
      expect(fixed).toContain("go/cmd/report/main.go: resolved 1 diagnostic (not written; changed with this write):");
      // Asked at once after the revert: the caller's old error must not come back from an earlier publish.
      expect(await lsp({ op: "diagnostics", file: "go/cmd/report/main.go" })).toContain(
        "No errors or warnings in go/cmd/report/main.go",
      );
    },
  );
});
