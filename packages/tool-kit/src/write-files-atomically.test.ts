import { chmod, mkdtemp, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "./tool-error.js";
import { writeFilesAtomically } from "./write-files-atomically.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "runbound-atomic-"));
  await writeFile(join(dir, "a.txt"), "A0");
  await writeFile(join(dir, "b.txt"), "B0");
  await writeFile(join(dir, "gone.txt"), "G0");
});

const contents = async () => Object.fromEntries(await Promise.all((await readdir(dir)).sort().map(async (name) => [name, await readFile(join(dir, name), "utf8")])));

describe("writeFilesAtomically", () => {
  it("writes, creates and deletes files as one change, keeping file modes", async () => {
    await chmod(join(dir, "a.txt"), 0o755);
    await writeFilesAtomically([
      { path: join(dir, "a.txt"), content: "A1", expected: "A0" },
      { path: join(dir, "new", "c.txt"), content: "C1", expected: null },
      { path: join(dir, "gone.txt"), content: null, expected: "G0" },
    ]);
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "b.txt", "new"]);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("A1");
    expect(await readFile(join(dir, "new", "c.txt"), "utf8")).toBe("C1");
    expect((await stat(join(dir, "a.txt"))).mode & 0o777).toBe(0o755);
  });

  it("rejects the whole change when any file differs from what was expected, naming it", async () => {
    const attempt = writeFilesAtomically([
      { path: join(dir, "a.txt"), content: "A1", expected: "A0" },
      { path: join(dir, "b.txt"), content: "B1", expected: "B-old", label: "b.txt" },
    ]);
    await expect(attempt).rejects.toThrow("Nothing was written: `b.txt` changed since the edit was prepared");
    await attempt.catch((error: unknown) => expect(ToolError.isInstance(error) && error.code).toBe("conflict"));
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("says which expected files were deleted or created meanwhile", async () => {
    const attempt = writeFilesAtomically([
      { path: join(dir, "missing.txt"), content: "M1", expected: "M0", label: "missing.txt" },
      { path: join(dir, "a.txt"), content: "A1", expected: null, label: "a.txt" },
    ]);
    await expect(attempt).rejects.toThrow("Nothing was written: `missing.txt` (deleted), `a.txt` (created) changed since the edit was prepared.");
  });

  it("lets only one of two changes computed from the same content through, so no update is lost", async () => {
    const path = join(dir, "a.txt");
    const outcomes = await Promise.allSettled([
      writeFilesAtomically([{ path, content: "A0 + first", expected: "A0", label: "a.txt" }]),
      writeFilesAtomically([{ path, content: "A0 + second", expected: "A0", label: "a.txt" }]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain("`a.txt` changed since the edit was prepared");
    expect(await readFile(path, "utf8")).toBe("A0 + first");
  });

  it("restores every file when a rename fails midway and leaves no temporary files", async () => {
    let renames = 0;
    const failing = async (from: string, to: string) => {
      renames += 1;
      // Fail on the second file's move into place, after the first file was already replaced.
      if (renames === 4) throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
      await rename(from, to);
    };
    const attempt = writeFilesAtomically(
      [
        { path: join(dir, "a.txt"), content: "A1" },
        { path: join(dir, "b.txt"), content: "B1" },
        { path: join(dir, "gone.txt"), content: null },
      ],
      { rename: failing },
    );
    await expect(attempt).rejects.toThrow("Nothing was written: writing the change failed (EIO: injected) and every file was restored.");
    await attempt.catch((error: unknown) => expect(ToolError.isInstance(error) && error.code).toBe("io_error"));
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });
});
