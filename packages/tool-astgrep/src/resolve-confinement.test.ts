import { mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { describe, expect, it } from "vitest";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "./index.js";

const source = "export function f() {\n  return old(1);\n}\n";

async function stagedIn(relativeDirectory: string) {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-resolve-swap-")));
  const workdir = join(base, "work");
  const outside = join(base, "outside");
  await mkdir(join(workdir, relativeDirectory), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workdir, relativeDirectory, "t.ts"), source);
  // The attacker's copy has the staged content, so the content check alone would let it through.
  await writeFile(join(outside, "t.ts"), source);
  const run = createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, createAstGrepParser()],
      [Workdir, workdir],
    ],
  });
  const staged = await run.call("ast_edit", { pattern: "old($X)", rewrite: "renewed($X)", path: relativeDirectory });
  expect(resultText(staged)).toContain('call resolve with edit_id "edit_1"');
  return { run, workdir, outside };
}

describe("resolve confines each file when it writes it, not when the edit was staged", () => {
  it("refuses a staged directory that was replaced by a symlink to outside the workdir (a checkout meanwhile)", async () => {
    const { run, workdir, outside } = await stagedIn("sub2");
    await rename(join(workdir, "sub2"), join(workdir, "sub2.old"));
    await symlink(outside, join(workdir, "sub2"));
    const accepted = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultErrorCode(accepted)).toBe("outside_workdir");
    expect(resultText(accepted)).toContain(
      "`sub2` was replaced by a symbolic link leading outside the working directory",
    );
    expect(await readFile(join(outside, "t.ts"), "utf8")).toBe(source);
    expect(run.written).toEqual([]);
    // The edit is still pending: once the directory is back, it applies.
    await rm(join(workdir, "sub2"));
    await rename(join(workdir, "sub2.old"), join(workdir, "sub2"));
    expect(resultText(await run.call("resolve", { edit_id: "edit_1", action: "accept" }))).toContain("Accepted edit_1");
    expect(await readFile(join(workdir, "sub2", "t.ts"), "utf8")).toContain("renewed(1)");
  });

  it("answers conflict when a staged file became a directory", async () => {
    const { run, workdir } = await stagedIn("lib");
    await rm(join(workdir, "lib", "t.ts"));
    await mkdir(join(workdir, "lib", "t.ts"));
    const accepted = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultErrorCode(accepted)).toBe("conflict");
    expect(resultText(accepted)).toContain("`lib/t.ts` became a directory since the edit was prepared");
  });
});
