import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, describePluginConformance } from "@runbound/tool-kit/testing";
import { createRun } from "@runbound/runner-adapter";
import { beforeEach, describe, expect, it } from "vitest";
import { fileToolsPlugin } from "./plugin.js";

let workdir: string;
let outside: string;

async function freshWorkdir(): Promise<string> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-files-")));
  const dir = join(base, "work");
  outside = join(base, "outside");
  await mkdir(join(dir, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "secret\n");
  await writeFile(join(dir, "src", "a.ts"), "const a = 1;\nconst b = 2;\nconst a2 = 1;\n");
  await symlink(outside, join(dir, "escape"));
  return dir;
}

beforeEach(async () => {
  workdir = await freshWorkdir();
});

const run = () => createFakeRun({ plugins: [fileToolsPlugin], resources: [[Workdir, workdir]] });

describePluginConformance(fileToolsPlugin, {
  resources: async () => [[Workdir, await freshWorkdir()]],
  sampleInputs: {
    read: { path: "src/a.ts" },
    write: { path: "new.txt", content: "x" },
    edit: { path: "src/a.ts", old_string: "b = 2", new_string: "b = 3" },
    apply_patch: { patch: "--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@\n+c\n" },
  },
});

describe("read", () => {
  it("numbers lines and reads from offset with a limit, saying how to continue", async () => {
    const result = await run().call("read", { path: "src/a.ts", offset: 2, limit: 1 });
    expect(resultText(result)).toBe("2\tconst b = 2;\n(Showing lines 2–2 of 3. Call read with offset=3 to continue.)");
  });

  it("lists a directory", async () => {
    expect(resultText(await run().call("read", { path: "." }))).toBe(
      "`.` is a directory with 2 entries:\nescape@\nsrc/",
    );
  });

  it.each([
    ["../outside/secret.txt", "outside_workdir"],
    ["/etc/passwd", "outside_workdir"],
    ["escape/secret.txt", "outside_workdir"],
    ["missing.txt", "not_found"],
  ])("refuses %s with %s", async (path, code) => {
    const result = await run().call("read", { path });
    expect(resultErrorCode(result)).toBe(code);
    expect(resultText(result)).toContain(path);
  });

  it("refuses a FIFO at once instead of blocking, and a file too large to hold", async () => {
    execFileSync("mkfifo", [join(workdir, "pipe")]);
    const fifo = await run().call("read", { path: "pipe" });
    expect(resultErrorCode(fifo)).toBe("invalid_input");
    expect(resultText(fifo)).toContain("`pipe` is not a regular file");
    // A sparse file: its size is what counts, and it costs no disk.
    await writeFile(join(workdir, "huge.log"), "");
    await truncate(join(workdir, "huge.log"), 300 * 1024 * 1024);
    expect(resultText(await run().call("read", { path: "huge.log" }))).toContain(
      "File `huge.log` is 300 MiB; `read` shows files up to 256 MiB.",
    );
  });

  it("refuses binary files and an offset past the end", async () => {
    await writeFile(join(workdir, "bin.dat"), Buffer.from([1, 0, 2]));
    expect(resultText(await run().call("read", { path: "bin.dat" }))).toContain("is binary");
    expect(resultText(await run().call("read", { path: "src/a.ts", offset: 9 }))).toContain(
      "Offset `9` is past the end of `src/a.ts`, which has 3 lines.",
    );
  });
});

describe("write", () => {
  it("creates parent directories, reports the write, and refuses to leave the workdir", async () => {
    const fake = run();
    expect(resultText(await fake.call("write", { path: "deep/new.txt", content: "hi" }))).toBe(
      "Created `deep/new.txt` (2 bytes).",
    );
    expect(await readFile(join(workdir, "deep", "new.txt"), "utf8")).toBe("hi");
    expect(fake.written).toEqual([join(workdir, "deep", "new.txt")]);
    expect(resultErrorCode(await fake.call("write", { path: "escape/evil.txt", content: "x" }))).toBe(
      "outside_workdir",
    );
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });
});

describe("edit", () => {
  it("replaces exactly one occurrence and keeps `$&` literal", async () => {
    const fake = run();
    expect(resultText(await fake.call("edit", { path: "src/a.ts", old_string: "b = 2", new_string: "b = '$&'" }))).toBe(
      "Edited `src/a.ts`: 1 replacement (line 2).",
    );
    expect(await readFile(join(workdir, "src", "a.ts"), "utf8")).toContain("const b = '$&';");
    expect(fake.written).toEqual([join(workdir, "src", "a.ts")]);
  });

  it("refuses an ambiguous old_string, listing the lines, unless replace_all", async () => {
    const ambiguous = await run().call("edit", { path: "src/a.ts", old_string: "= 1;", new_string: "= 9;" });
    expect(resultErrorCode(ambiguous)).toBe("invalid_input");
    expect(resultText(ambiguous)).toContain("occurs 2 times in `src/a.ts` (lines 1, 3)");
    expect(
      resultText(
        await run().call("edit", { path: "src/a.ts", old_string: "= 1;", new_string: "= 9;", replace_all: true }),
      ),
    ).toContain("2 replacements (lines 1, 3)");
  });

  it("applies every one of many concurrent edits of one file (a model's parallel tool calls)", async () => {
    const lines = Array.from({ length: 12 }, (_, index) => `line ${index}`);
    await writeFile(join(workdir, "many.txt"), `${lines.join("\n")}\n`);
    const host = createRun({ plugins: [fileToolsPlugin] });
    await host.attach(Workdir, { value: workdir });
    const results = await Promise.all(
      lines.map((line) =>
        host.call("edit", { path: "many.txt", old_string: `${line}\n`, new_string: `${line.toUpperCase()}\n` }),
      ),
    );
    expect(results.filter((result) => result.isError === true).map(resultText)).toEqual([]);
    expect(await readFile(join(workdir, "many.txt"), "utf8")).toBe(
      `${lines.map((line) => line.toUpperCase()).join("\n")}\n`,
    );
    await host.close();
  });

  it("names the first 20 lines of a large replace_all and counts the rest", async () => {
    await writeFile(join(workdir, "many.txt"), "x\n".repeat(5000));
    const result = await run().call("edit", { path: "many.txt", old_string: "x", new_string: "y", replace_all: true });
    expect(resultText(result)).toBe(
      `Edited \`many.txt\`: 5000 replacements (lines ${Array.from({ length: 20 }, (_, index) => index + 1).join(", ")} and 4980 more).`,
    );
    const ambiguous = await run().call("edit", { path: "many.txt", old_string: "y", new_string: "z" });
    expect(resultText(ambiguous)).toContain(
      "occurs 5000 times in `many.txt` (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 4980 more)",
    );
  });

  it("edits a CRLF file with the bare newlines `read` shows, keeping its CRLF endings", async () => {
    await writeFile(join(workdir, "win.txt"), "alpha\r\nbeta\r\ngamma\r\n");
    const result = await run().call("edit", {
      path: "win.txt",
      old_string: "alpha\nbeta",
      new_string: "ALPHA\nnew\nBETA",
    });
    expect(resultText(result)).toBe("Edited `win.txt`: 1 replacement (line 1).");
    expect(await readFile(join(workdir, "win.txt"), "utf8")).toBe("ALPHA\r\nnew\r\nBETA\r\ngamma\r\n");
  });

  it("answers invalid_input naming the path when edit or write is given a directory", async () => {
    for (const [tool, input] of [
      ["write", { path: "src", content: "x" }],
      ["edit", { path: "src", old_string: "a", new_string: "b" }],
    ] as const) {
      const result = await run().call(tool, input);
      expect(resultErrorCode(result)).toBe("invalid_input");
      expect(resultText(result)).toContain("`src` is a directory, not a file.");
    }
  });

  it("says when old_string is absent or equal to new_string", async () => {
    expect(resultErrorCode(await run().call("edit", { path: "src/a.ts", old_string: "nope", new_string: "x" }))).toBe(
      "not_found",
    );
    expect(resultText(await run().call("edit", { path: "src/a.ts", old_string: "a", new_string: "a" }))).toContain(
      "the same",
    );
  });
});

describe("apply_patch", () => {
  it("modifies, creates and deletes files in one change and reports each", async () => {
    await writeFile(join(workdir, "old.txt"), "bye\n");
    const patch = [
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -1,2 +1,2 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 3;",
      "--- /dev/null",
      "+++ b/docs/new.md",
      "@@ -0,0 +1,2 @@",
      "+# New",
      "+text",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "",
    ].join("\n");
    const fake = run();
    const result = await fake.call("apply_patch", { patch });
    expect(resultText(result)).toBe(
      "Applied the patch to 3 files:\nmodified src/a.ts\ncreated docs/new.md\ndeleted old.txt",
    );
    expect(await readFile(join(workdir, "src", "a.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\nconst a2 = 1;\n");
    expect(await readFile(join(workdir, "docs", "new.md"), "utf8")).toBe("# New\ntext\n");
    expect((await readdir(workdir)).sort()).toEqual(["docs", "escape", "src"]);
    expect(fake.written).toHaveLength(3);
  });

  it("applies git's own diff of renames, quoted and spaced names, empty files and mixed endings, leaving the tree git would", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: workdir, encoding: "utf8" });
    const files: Record<string, string> = {
      "a.txt": "one\ntwo\nthree\n",
      "pure.txt": "keep\n",
      "empty.txt": "",
      "with space.txt": "a\n",
      "été.txt": "a\n",
      "mixed.txt": "l1\r\nl2\nl3\r\n",
      "nonl.txt": "x\ny",
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(workdir, name), content);
    git("init", "-q", ".");
    git("add", "-A");
    git("commit", "-qm", "before");
    git("mv", "a.txt", "b.txt");
    git("mv", "pure.txt", "moved.txt");
    git("rm", "-q", "empty.txt");
    const after: Record<string, string> = {
      "b.txt": "one\nTWO\nthree\n",
      "new-empty.txt": "",
      "with space.txt": "b\n",
      "été.txt": "b\n",
      "mixed.txt": "l1\r\nL2\nl3\r\n",
      "nonl.txt": "x\ny\nz",
    };
    for (const [name, content] of Object.entries(after)) await writeFile(join(workdir, name), content);
    git("add", "-A");
    // What git's tree looks like without the mode change, which apply_patch reports instead of applying.
    const expected = git("diff", "--cached", "--no-renames", "HEAD");
    await chmod(join(workdir, "nonl.txt"), 0o755);
    git("add", "-A");
    const patch = git("diff", "--cached", "-M");
    git("reset", "-q", "--hard");
    await rm(join(workdir, "new-empty.txt"), { force: true });

    const result = await run().call("apply_patch", { patch });
    expect(resultText(result)).toContain("renamed a.txt → b.txt (modified)");
    expect(resultText(result)).toContain("renamed pure.txt → moved.txt");
    expect(resultText(result)).toContain("(mode 100755 of nonl.txt was not applied");
    git("add", "-A");
    expect(git("diff", "--cached", "--no-renames", "HEAD")).toBe(expected);
  });

  it("answers a hunk header far past the end of the file at once instead of searching forever", async () => {
    const started = Date.now();
    const result = await run().call("apply_patch", {
      patch: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -99999999999999999999 +1 @@\n-const a = 1;\n+const a = 2;\n",
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("99999999999999999999");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await readFile(join(workdir, "src", "a.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\nconst a2 = 1;\n");
  });

  it("stops a long patch when the call's budget runs out, and answers timeout", async () => {
    // 90,000 hunks (a patch near the 4 MiB limit): far more than the 20 ms budget to read, on any
    // machine, so it is stopped only if reading and applying yield to the event loop.
    const hunkCount = 90_000;
    const lines = Array.from({ length: hunkCount * 2 }, (_, index) => `line ${index}`);
    await writeFile(join(workdir, "big.txt"), `${lines.join("\n")}\n`);
    const hunks = Array.from(
      { length: hunkCount },
      (_, index) => `@@ -${index * 2 + 1} +${index * 2 + 1} @@\n-line ${index * 2}\n+LINE ${index * 2}\n`,
    ).join("");
    const host = createRun({ plugins: [fileToolsPlugin], defaultTimeoutMs: 20 });
    await host.attach(Workdir, { value: workdir });
    const started = Date.now();
    const result = await host.call("apply_patch", { patch: `--- a/big.txt\n+++ b/big.txt\n${hunks}` });
    const answeredAfter = Date.now() - started;
    expect(resultErrorCode(result), resultText(result)).toBe("timeout");
    expect(answeredAfter).toBeLessThan(5_000);
    expect(await readFile(join(workdir, "big.txt"), "utf8")).toBe(`${lines.join("\n")}\n`);
    await host.close();
  });

  it("writes nothing when one hunk does not apply", async () => {
    const patch =
      "--- /dev/null\n+++ b/created.txt\n@@ -0,0 +1 @@\n+x\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-const zzz = 1;\n+const a = 5;\n";
    const result = await run().call("apply_patch", { patch });
    expect(resultErrorCode(result)).toBe("conflict");
    expect(resultText(result)).toContain("hunk `@@ -1 +1 @@` does not apply to `src/a.ts`");
    expect((await readdir(workdir)).sort()).toEqual(["escape", "src"]);
  });

  it("refuses a patch that is not a unified diff, and one that leaves the workdir", async () => {
    expect(resultText(await run().call("apply_patch", { patch: "change a to b" }))).toContain(
      "no `---`/`+++` file header was found",
    );
    const escape = "--- /dev/null\n+++ b/../outside/x.txt\n@@ -0,0 +1 @@\n+x\n";
    expect(resultErrorCode(await run().call("apply_patch", { patch: escape }))).toBe("outside_workdir");
  });
});
