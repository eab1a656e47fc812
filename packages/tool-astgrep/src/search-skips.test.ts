import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { readSearchableFile } from "./searchable-file.js";

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  // `rm -rf` removes trees whose paths are longer than PATH_MAX (it walks with directory handles).
  if (workspace !== undefined) execFileSync("rm", ["-rf", workspace.dir]);
  workspace = undefined;
});

async function runIn(files: Record<string, string>) {
  workspace = await createTempWorkspace(files);
  return { run: createParserRun(workspace.dir), dir: workspace.dir };
}

interface SkippedView {
  path: string;
  reason: string;
}

/**
 * A directory the walker cannot read whoever runs it, root included (CI runs as root, so mode 000
 * does not do): its absolute path is longer than PATH_MAX (4,096 bytes), so `readdir` fails with
 * ENAMETOOLONG. A child process builds it one relative `chdir` at a time, as a deep checkout would
 * be (the test's own process may not change directory).
 */
function createTooDeepDirectory(dir: string): string {
  const name = "d".repeat(250);
  const levels = Math.ceil(4200 / (name.length + 1));
  const script = `const fs = require("node:fs"); process.chdir(process.argv[1]); for (let i = 0; i < ${levels}; i++) { fs.mkdirSync("${name}"); process.chdir("${name}"); } fs.writeFileSync("deep.ts", "foo(9);\\n");`;
  execFileSync(process.execPath, ["-e", script, join(dir, "deep")]);
  return `deep/${Array.from({ length: levels - 1 }, () => name).join("/")}`;
}

describe("every skipped entry is counted and named", () => {
  it("a directory that cannot be read (path longer than PATH_MAX, ENAMETOOLONG)", async () => {
    const { run, dir } = await runIn({ "a.ts": "foo(1);\n", "deep/.keep": "" });
    const deepest = createTooDeepDirectory(dir);
    const result = await run.call("ast_grep", { pattern: "foo($A)" });
    const text = resultText(result);
    expect(result.structured?.["total"], text).toBe(1);
    expect(text).toContain("skipped 1 unreadable directory");
    expect(text).toContain("(unreadable directory: ENAMETOOLONG)");
    const entries = result.structured?.["skipped_entries"] as SkippedView[];
    expect(entries).toHaveLength(1);
    expect(entries[0]!.reason).toBe("unreadable directory: ENAMETOOLONG");
    // Long paths are shortened from the front, keeping the name that identifies them.
    expect(entries[0]!.path.startsWith("…")).toBe(true);
    expect(deepest.endsWith(entries[0]!.path.slice(1))).toBe(true);
    expect((result.structured?.["skipped"] as Record<string, number>)["unreadable_directory"]).toBe(1);
  });

  it("an explicit path that is a FIFO, and FIFOs and symlinks met in the walk", async () => {
    const { run, dir } = await runIn({ "src/a.ts": "foo(1);\n" });
    execFileSync("mkfifo", [join(dir, "pipe.ts"), join(dir, "src", "queue.ts")]);
    symlinkSync("a.ts", join(dir, "src", "alias.ts"));
    symlinkSync("..", join(dir, "src", "loop"));
    const explicit = await run.call("ast_grep", { pattern: "foo($A)", path: "pipe.ts" });
    expect(resultErrorCode(explicit)).toBeUndefined();
    expect(resultText(explicit)).toContain("skipped 1 not a regular file (pipe, socket or device)");
    expect(resultText(explicit)).toContain("`pipe.ts` (not a regular file)");

    const walked = await run.call("ast_grep", { pattern: "foo($A)", path: "src" });
    const text = resultText(walked);
    expect(walked.structured?.["total"], text).toBe(1);
    expect(text).toContain("skipped 1 not a regular file (pipe, socket or device), 2 symlinks (not followed)");
    expect(
      (walked.structured?.["skipped_entries"] as SkippedView[]).map((entry) => `${entry.path}: ${entry.reason}`),
    ).toEqual([
      "src/alias.ts: symlink, not followed",
      "src/loop: symlink, not followed",
      "src/queue.ts: not a regular file",
    ]);
  });

  it("names the first few within the answer's bound and counts the rest", async () => {
    const { run, dir } = await runIn({ "a.ts": "foo(1);\n" });
    mkdirSync(join(dir, "links"));
    for (let index = 0; index < 40; index++)
      symlinkSync("../a.ts", join(dir, "links", `${"l".repeat(200)}${index}.ts`));
    const result = await run.call("ast_grep", { pattern: "foo($A)" });
    const text = resultText(result);
    expect(text).toContain("skipped 40 symlinks (not followed)");
    expect(text).toContain("and 35 more.");
    expect((result.structured?.["skipped_entries"] as SkippedView[]).length).toBe(10);
    expect(Buffer.byteLength(text)).toBeLessThan(16 * 1024);
  });

  it("never opens a FIFO or follows a symlink that replaced a listed file", async () => {
    const { dir } = await runIn({ "real.ts": "x;\n" });
    execFileSync("mkfifo", [join(dir, "swapped.ts")]);
    symlinkSync("real.ts", join(dir, "link.ts"));
    // Opening a FIFO for reading used to block until a writer came: forever, on the main thread.
    expect(readSearchableFile(join(dir, "swapped.ts"), dir, 1024)).toEqual({ reason: "not_regular" });
    expect(readSearchableFile(join(dir, "link.ts"), dir, 1024)).toEqual({ reason: "symlink", code: "ELOOP" });
    expect(readSearchableFile(join(dir, "real.ts"), dir, 1024)).toMatchObject({
      bytes: Buffer.from("x;\n"),
      stats: { size: 3 },
    });
  });

  it("does not read a listed file once a directory on its path leads outside the working directory", async () => {
    const { dir } = await runIn({ "config/hosts.ts": "x;\n" });
    const elsewhere = (await createTempWorkspace({ "hosts.ts": "token;\n" })).dir;
    try {
      rmSync(join(dir, "config"), { recursive: true });
      symlinkSync(elsewhere, join(dir, "config"));
      expect(readSearchableFile(join(dir, "config/hosts.ts"), dir, 1024)).toEqual({ reason: "outside_workdir" });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("searches a workdir given through a symlink (its files are inside it once it is resolved), with the cache on and off", async () => {
    const { dir } = await runIn({ "src/a.ts": "foo(1);\n" });
    const linked = `${dir}-linked`;
    symlinkSync(dir, linked);
    try {
      for (const parseCacheBytes of [0, 1 << 20]) {
        const result = await createParserRun(linked, { parseCacheBytes }).call("ast_grep", {
          pattern: "foo($A)",
          path: "src",
        });
        expect(resultText(result)).toMatch(/^1 match in 1 file/);
        expect(result.structured).toMatchObject({ skipped: { outside_workdir: 0 } });
      }
    } finally {
      rmSync(linked);
    }
  });

  it("answers a path through a symlink loop as bad input, naming it, not as a bug", async () => {
    const { run, dir } = await runIn({ "a.ts": "foo(1);\n" });
    symlinkSync("self.ts", join(dir, "self.ts"));
    const result = await run.call("ast_grep", { pattern: "foo($A)", path: "self.ts" });
    expect(resultErrorCode(result), resultText(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("`self.ts`");
  });
});
