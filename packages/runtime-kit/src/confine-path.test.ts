import { mkdir, mkdtemp, realpath, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { displayPath, resolveInWorkdir } from "./confine-path.js";
import { toolErrorOf } from "./__fixtures__/tool-error-of.js";
import { ToolError } from "@runbound/tool-kit";

let workdir: string;
let outsideDir: string;

beforeAll(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-confine-")));
  workdir = join(base, "work");
  outsideDir = join(base, "outside");
  await mkdir(join(workdir, "src"), { recursive: true });
  await mkdir(outsideDir);
  await writeFile(join(workdir, "src", "a.ts"), "a");
  await writeFile(join(outsideDir, "secret.txt"), "s");
  await symlink(outsideDir, join(workdir, "escape"));
  await symlink(join(workdir, "src"), join(workdir, "inner-link"));
});

async function codeOf(path: string): Promise<string> {
  try {
    await resolveInWorkdir(workdir, path);
  } catch (error) {
    expect(ToolError.isInstance(error)).toBe(true);
    return (error as ToolError).code;
  }
  return "resolved";
}

describe("resolveInWorkdir", () => {
  it("resolves relative, absolute-inside and not-yet-existing paths", async () => {
    expect(await resolveInWorkdir(workdir, "src/a.ts")).toBe(join(workdir, "src", "a.ts"));
    expect(await resolveInWorkdir(workdir, join(workdir, "src"))).toBe(join(workdir, "src"));
    expect(await resolveInWorkdir(workdir, "src/new/deep.ts")).toBe(join(workdir, "src", "new", "deep.ts"));
    expect(await resolveInWorkdir(workdir, "src/../src/a.ts")).toBe(join(workdir, "src", "a.ts"));
    expect(await resolveInWorkdir(workdir, "inner-link/a.ts")).toBe(join(workdir, "src", "a.ts"));
  });

  it("refuses `..`, absolute paths outside and symlinks that leave", async () => {
    expect(await codeOf("..")).toBe("outside_workdir");
    expect(await codeOf("src/../..")).toBe("outside_workdir");
    expect(await codeOf("../outside/secret.txt")).toBe("outside_workdir");
    expect(await codeOf(join(outsideDir, "secret.txt"))).toBe("outside_workdir");
    expect(await codeOf("/etc/passwd")).toBe("outside_workdir");
    expect(await codeOf("escape/secret.txt")).toBe("outside_workdir");
    expect(await codeOf("escape/not-yet.txt")).toBe("outside_workdir");
  });

  it("accepts the workdir itself and names that look like `..` but are not", async () => {
    expect(await resolveInWorkdir(workdir, ".")).toBe(workdir);
    expect(await resolveInWorkdir(workdir, "..dots")).toBe(join(workdir, "..dots"));
  });

  it("answers a symlink loop and an over-long name as invalid input naming the path, not as a bug", async () => {
    await symlink("loop-b", join(workdir, "loop-a"));
    await symlink("loop-a", join(workdir, "loop-b"));
    await expect(resolveInWorkdir(workdir, "loop-a/x.ts")).rejects.toThrow(
      "`loop-a/x.ts` goes through a loop of symbolic links",
    );
    expect(await codeOf("loop-a/x.ts")).toBe("invalid_input");
    expect(await codeOf(`${"n".repeat(300)}/x.ts`)).toBe("invalid_input");
  });

  it("refuses a path too long for the file system before anything walks or creates it", async () => {
    const deep = `${"x/".repeat(3000)}f`;
    const error = await toolErrorOf(resolveInWorkdir(workdir, deep));
    expect([error.code, error.message]).toEqual([
      "invalid_input",
      `\`${deep.slice(0, 200)}… (6001 characters)\` is too long for the file system (a name has at most 255 bytes, a path 4096). Use a shorter path.`,
    ]);
    expect(await codeOf(`${"é".repeat(128)}.txt`)).toBe("invalid_input");
    expect(await resolveInWorkdir(workdir, `${"e".repeat(255)}`)).toBe(join(workdir, "e".repeat(255)));
  });

  it("names the path and the workdir in the message", async () => {
    await expect(resolveInWorkdir(workdir, "../x")).rejects.toThrow(
      `Path \`../x\` resolves outside the working directory \`${workdir}\``,
    );
  });

  it("refuses empty paths, NUL bytes and non-strings as invalid input, saying what a path must be", async () => {
    expect(await codeOf("")).toBe("invalid_input");
    expect(await codeOf("a\0b")).toBe("invalid_input");
    expect(await codeOf(5 as never)).toBe("invalid_input");
    await expect(resolveInWorkdir(workdir, "")).rejects.toThrow(
      "Path `` is not valid. Give a non-empty path without NUL bytes.",
    );
  });

  it("resolves a path below a file to where it would be (using it then says the file is no directory)", async () => {
    expect(await resolveInWorkdir(workdir, "src/a.ts/child.ts")).toBe(join(workdir, "src", "a.ts", "child.ts"));
  });
});

describe("displayPath", () => {
  it("is relative with forward slashes", () => {
    expect(displayPath("/w", "/w/src/a.ts")).toBe("src/a.ts");
    expect(displayPath("/w", "/w")).toBe(".");
  });
});
