import { execFileSync, spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRun, type Run } from "@runbound/runner-adapter";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileToolsPlugin } from "./plugin.js";

const swapper = new URL("__fixtures__/directory-swapper.mjs", import.meta.url).pathname;

let workdir: string;
let outside: string;
let run: Run;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-confinement-")));
  workdir = join(base, "work");
  outside = join(base, "outside");
  await mkdir(join(workdir, "race"), { recursive: true });
  await mkdir(outside);
  run = createRun({ plugins: [fileToolsPlugin] });
  await run.attach(Workdir, { value: workdir });
});

afterEach(() => run.close());

/** Every file below `directory`, relative to it, without following symlinks. */
async function filesBelow(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1));
}

/** Run `calls` one after another while another process swaps `race/` for a symlink to outside and back. */
async function underSwapRace(
  calls: number,
  call: (index: number) => Promise<{ isError?: boolean }>,
  dwellMs = 0,
): Promise<{ succeeded: number[]; swaps: number }> {
  const child = spawn(process.execPath, [swapper, join(workdir, "race"), outside, "100000000", String(dwellMs)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  // Let the swapping start before the first call.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const succeeded: number[] = [];
  try {
    for (let index = 0; index < calls; index++) if ((await call(index)).isError !== true) succeeded.push(index);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  expect(errors).toBe("");
  return { succeeded, swaps: Number(output.trim()) };
}

describe("confinement at the moment of writing, under a racing directory swap", () => {
  it.each([
    ["write", (index: number) => ({ path: `race/w${index}.txt`, content: `w${index}` })],
    [
      "apply_patch",
      (index: number) => ({ patch: `--- /dev/null\n+++ b/race/p${index}.txt\n@@ -0,0 +1 @@\n+p${index}\n` }),
    ],
  ] as const)("%s: 0 of 400 writes land outside and no temporary file is left anywhere", async (tool, input) => {
    const { succeeded, swaps } = await underSwapRace(400, (index) => run.call(tool, input(index)));
    expect(swaps).toBeGreaterThan(400);
    expect(await filesBelow(outside)).toEqual([]);
    // Every write reported as done is inside, with its content, and nothing else was left behind: in
    // race/, or in a race/ the tool created while the real one was parked (the swapper moves those aside).
    const prefix = tool === "write" ? "w" : "p";
    const landed = await filesBelow(workdir);
    expect(landed.map((path) => path.split("/").at(-1)).sort()).toEqual(
      succeeded.map((index) => `${prefix}${index}.txt`).sort(),
    );
    for (const path of landed)
      expect(await readFile(join(workdir, path), "utf8")).toBe(
        tool === "write" ? path.split("/").at(-1)!.slice(0, -4) : `${path.split("/").at(-1)!.slice(0, -4)}\n`,
      );
    // The race must have been real: some calls met the symlink, and some got through.
    expect(succeeded.length).toBeGreaterThan(0);
    expect(succeeded.length).toBeLessThan(400);
  });

  it("edit never reads or writes outside while the directory is swapped", async () => {
    await writeFile(join(workdir, "race", "e.txt"), "value 0\n");
    await writeFile(join(outside, "e.txt"), "outside 0\n");
    let expected = 0;
    // An edit reads, then writes: the real directory dwells 2 ms each round so some edits get both.
    const { succeeded } = await underSwapRace(
      200,
      async (index) => {
        const result = await run.call("edit", {
          path: "race/e.txt",
          old_string: `value ${expected}\n`,
          new_string: `value ${index + 1}\n`,
        });
        if (result.isError !== true) expected = index + 1;
        return result;
      },
      2,
    );
    expect(await readFile(join(outside, "e.txt"), "utf8")).toBe("outside 0\n");
    expect(await readFile(join(workdir, "race", "e.txt"), "utf8")).toBe(`value ${expected}\n`);
    expect(succeeded.length).toBeGreaterThan(0);
  });
});

describe("only regular files are written", () => {
  it("refuses a named pipe in write, edit and apply_patch at once, and the tools keep answering", async () => {
    execFileSync("mkfifo", [join(workdir, "pipe")]);
    await writeFile(join(workdir, "plain.txt"), "plain\n");
    const calls = [
      run.call("write", { path: "pipe", content: "x" }),
      run.call("edit", { path: "pipe", old_string: "a", new_string: "b" }),
      run.call("apply_patch", { patch: "--- a/pipe\n+++ b/pipe\n@@ -1 +1 @@\n-a\n+b\n" }),
      run.call("write", { path: "pipe", content: "y" }),
      run.call("read", { path: "pipe" }),
    ];
    for (const result of await Promise.all(calls)) {
      expect(resultErrorCode(result)).toBe("invalid_input");
      expect(resultText(result)).toContain("`pipe` is");
    }
    // Had they blocked a thread each, the pool would be starved and this read would time out.
    expect(resultText(await run.call("read", { path: "plain.txt" }))).toBe("1\tplain");
  });

  it("refuses to change a read-only file, saying how to make it writable", async () => {
    await writeFile(join(workdir, "locked.txt"), "keep\n");
    await chmod(join(workdir, "locked.txt"), 0o444);
    const attempts = [
      await run.call("write", { path: "locked.txt", content: "changed" }),
      await run.call("edit", { path: "locked.txt", old_string: "keep", new_string: "changed" }),
      await run.call("apply_patch", { patch: "--- a/locked.txt\n+++ b/locked.txt\n@@ -1 +1 @@\n-keep\n+changed\n" }),
    ];
    for (const result of attempts) {
      expect(resultErrorCode(result)).toBe("io_error");
      expect(resultText(result)).toContain(
        "`locked.txt` is read-only (mode 0444). Leave it as it is, or make it writable (`chmod u+w`) first if it is meant to change.",
      );
    }
    expect(await readFile(join(workdir, "locked.txt"), "utf8")).toBe("keep\n");
  });
});

describe("file-system errors name the path and carry a code the model can act on", () => {
  it.each([
    [
      "a symlink loop",
      async () => symlink("loop", join(workdir, "loop")),
      "loop/x.txt",
      "invalid_input",
      "goes through a loop of symbolic links",
    ],
    [
      "a name too long",
      async () => undefined,
      `${"n".repeat(300)}.txt`,
      "invalid_input",
      "is too long for the file system",
    ],
    [
      "a file used as a directory",
      async () => writeFile(join(workdir, "file"), "f"),
      "file/x.txt",
      "invalid_input",
      "is not a directory",
    ],
  ])("%s", async (_name, arrange, path, code, words) => {
    await arrange();
    for (const result of [
      await run.call("write", { path, content: "x" }),
      await run.call("read", { path }),
      await run.call("edit", { path, old_string: "a", new_string: "b" }),
    ]) {
      expect(resultErrorCode(result)).toBe(code);
      expect(resultText(result)).toContain(words);
      expect(resultText(result)).toContain(path.slice(0, 40));
    }
  });
});
