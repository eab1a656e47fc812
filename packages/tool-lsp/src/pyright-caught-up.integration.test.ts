import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { useWriteRun } from "./test-support/write-run.js";

const available = realProgramsAvailable(["pyright-langserver"]);
// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

/** `count` functions of the same shape, each a little work for pyright to check. */
function steps(count: number): string {
  return Array.from(
    { length: count },
    (_, n) =>
      `def step_${n}(value: str = FIRST) -> str:\n    parts = [value.upper(), value.lower(), str(len(value) + ${n})]\n    return "-".join(sorted(parts, key=lambda part: (len(part), part)))\n\n`,
  ).join("");
}

/**
 * The fixture's heavy modules, written at test time: six callers of `util.label` (the write asks about
 * them) and six modules that import caller_0 and only make pyright's re-check of the change take a while.
 */
function addHeavyModules(workdir: string): void {
  for (let index = 0; index < 6; index += 1) {
    const caller = `from pkg.util import label\n\nFIRST = str(label("${index}"))\n\n${steps(60)}`;
    writeFileSync(join(workdir, "pkg", `caller_${index}.py`), caller);
    writeFileSync(join(workdir, "pkg", `busy_${index}.py`), `from pkg.caller_0 import FIRST\n\n${steps(150)}`);
  }
}

/**
 * pyright reports the progress of every document pull on the workspace stream's work-done token,
 * the same one its own re-check of a change reports on: the end of an importer's ask is not the end
 * of that re-check, and a write's answer about the other files must wait for the latter.
 */
describe.runIf(available)("a pyright write answers for the other files once pyright's own re-check of it ended", () => {
  const { put, lsp, readText } = useWriteRun("pyright-recheck", () => ({}), addHeavyModules);

  it(
    "a file two imports away, which the write's ask does not reach, is reported broken and then repaired",
    { timeout: slow },
    async () => {
      const util = "pkg/util.py";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in pkg/util.py");
      const original = await readText(util);

      // `label` now returns an int: the callers (asked about) still type-check; indirect.py, which takes `label`
      // from caller_0.py and is not asked about, does not — pyright's own re-check reaches it after the asks.
      const retyped = await put(
        util,
        original.replace('-> str:\n    return name + "!"', "-> int:\n    return len(name)"),
      );
      expect(retyped).toContain(
        "`python` checked the 6 files that import `pkg/util.py`: no new errors or warnings there.",
      );
      // Before, the end of the last ask counted as the end of pyright's re-check: "re-checked N other files: no new errors".
      if (!retyped.includes("pkg/indirect.py: 1 error introduced by this write so far"))
        expect(retyped).toContain("`python` is still re-checking the files that depend on it indirectly");
      expect(retyped).not.toMatch(/re-checked \d+ other files? that depend on the written files: no new errors/);
      await expect
        .poll(() => lsp({ op: "diagnostics", file: "pkg/indirect.py" }), { timeout: slow, interval: 1_000 })
        .toMatch(/pkg\/indirect\.py:3: error Pyright reportAttributeAccessIssue: Cannot access attribute "upper"/);

      await put(util, original);
      await expect
        .poll(() => lsp({ op: "diagnostics", file: "pkg/indirect.py" }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in pkg/indirect.py");
    },
  );
});
