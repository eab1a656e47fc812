import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isExecutableFile } from "./is-executable-file.js";

describe("isExecutableFile", () => {
  it("is true only for a regular file with the execute bit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "runtime-kit-exec-"));
    await writeFile(join(dir, "tool"), "#!/bin/sh\n");
    await chmod(join(dir, "tool"), 0o755);
    await writeFile(join(dir, "plain"), "text");
    await chmod(join(dir, "plain"), 0o644);
    await mkdir(join(dir, "folder"));
    await chmod(join(dir, "folder"), 0o755);
    expect(await isExecutableFile(join(dir, "tool"))).toBe(true);
    expect(await isExecutableFile(join(dir, "folder"))).toBe(false);
    expect(await isExecutableFile(join(dir, "missing"))).toBe(false);
    // Root may execute a file without an execute bit only when some bit is set, so this holds for root too.
    expect(await isExecutableFile(join(dir, "plain"))).toBe(false);
  });
});
