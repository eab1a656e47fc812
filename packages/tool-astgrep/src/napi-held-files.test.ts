import { execFileSync } from "node:child_process";
import { fstatSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { napi } from "./napi-binding.js";
import { holdFiles } from "./napi-held-files.js";
import type { SkippedEntry } from "./skip-ledger.js";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-astgrep-held-")));
const outside = mkdtempSync(join(tmpdir(), "runbound-astgrep-outside-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** What napi's findInFiles finds for `f($A)` in the given paths: each match's file name and text. */
async function napiFinds(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const files = await napi().findInFiles(
    "TypeScript",
    { paths: [...paths], matcher: { rule: { pattern: "f($A)" } } },
    (error, nodes) => {
      if (error === null) for (const node of nodes) found.push(`${node.getRoot().filename()} ${node.text()}`);
    },
  );
  // napi may settle before its callbacks ran (ast-grep/ast-grep#206).
  for (let waited = 0; found.length < files && waited < 100; waited++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return found;
}

describe("holdFiles", () => {
  it("lets napi read the file it opened, even after the path was swapped for a symlink leading outside", async () => {
    const secret = join(outside, "secret.ts");
    writeFileSync(secret, "const key = f(SECRET);\n");
    const path = join(dir, "swapped.ts");
    writeFileSync(path, "const a = f(1);\n");
    const held = holdFiles([path], dir, () => expect.unreachable("a regular file was skipped"));
    unlinkSync(path);
    symlinkSync(secret, path);
    try {
      // Given the path itself, napi follows the link out of the directory: the reason descriptors are held.
      expect(await napiFinds([path])).toEqual([`${path} f(SECRET)`]);
      const found = await napiFinds(held.napiPaths);
      expect(found.map((line) => line.split(" ")[1])).toEqual(["f(1)"]);
      expect(held.pathOf(found[0]!.split(" ")[0]!)).toBe(path);
    } finally {
      held.close();
    }
  });

  it("skips, and reports, a path that is a symlink or a FIFO by the time the batch runs", () => {
    const real = join(dir, "real.ts");
    writeFileSync(real, "f(2);\n");
    const link = join(dir, "link.ts");
    symlinkSync(real, link);
    const fifo = join(dir, "fifo.ts");
    execFileSync("mkfifo", [fifo]);
    const skipped: SkippedEntry[] = [];
    const held = holdFiles([link, fifo, real], dir, (entry) => skipped.push(entry));
    try {
      expect(skipped).toEqual([
        { path: link, reason: "symlink", code: "ELOOP" },
        { path: fifo, reason: "not_regular" },
      ]);
      expect(held.napiPaths).toHaveLength(1);
      expect(held.pathOf(held.napiPaths[0]!)).toBe(real);
    } finally {
      held.close();
    }
  });

  it("refuses a file reached through a directory swapped for a symlink leading outside", () => {
    writeFileSync(join(outside, "hosts.ts"), "f(TOKEN);\n");
    const swapped = join(dir, "config");
    symlinkSync(outside, swapped);
    const skipped: SkippedEntry[] = [];
    const held = holdFiles([join(swapped, "hosts.ts")], dir, (entry) => skipped.push(entry));
    held.close();
    expect(skipped).toEqual([{ path: join(swapped, "hosts.ts"), reason: "outside_workdir" }]);
    expect(held.napiPaths).toEqual([]);
  });

  it("closes every descriptor it opened", () => {
    const path = join(dir, "closed.ts");
    writeFileSync(path, "f(3);\n");
    const held = holdFiles([path], dir, () => undefined);
    const descriptor = Number(held.napiPaths[0]!.split("/").pop());
    expect(fstatSync(descriptor).isFile()).toBe(true);
    held.close();
    expect(() => fstatSync(descriptor)).toThrow(expect.objectContaining({ code: "EBADF" }));
  });
});
