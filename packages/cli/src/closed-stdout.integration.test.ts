import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { descendantsOf, isRunning } from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-closed-stdout-")));
  await writeFile(join(project, "notes.txt"), "first\nsecond\n");
});

/**
 * Run `runbound` with its stdout pipe already closed by the reader, as `runbound … | true` does:
 * the read end is destroyed before the child can write, so its first write meets EPIPE.
 */
function runWithClosedStdout(
  args: readonly string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; pid: number; leftBehind: number[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args, "-C", project], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.destroy();
    child.stdin.end();
    let stderr = "";
    let children: number[] = [];
    // Sampled while it runs: what it started must be gone once it exited.
    const sampler = setInterval(() => (children = [...new Set([...children, ...descendantsOf(child.pid!)])]), 20);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearInterval(sampler);
      resolve({ code, signal, stderr, pid: child.pid!, leftBehind: children.filter(isRunning) });
    });
  });
}

describe("a closed stdout (issue 22, item 7)", () => {
  it("ends `call` quietly with the tool's own exit code once the tool has run", async () => {
    const written = await runWithClosedStdout(["call", "write", '{"path":"out.txt","content":"written\\n"}']);
    expect(written).toMatchObject({ code: 0, signal: null, stderr: "", leftBehind: [] });
    expect(isRunning(written.pid)).toBe(false);
    // The tool did its work before the answer found no reader.
    expect(await readFile(join(project, "out.txt"), "utf8")).toBe("written\n");

    const read = await runWithClosedStdout(["call", "read", '{"path":"notes.txt"}']);
    expect(read).toMatchObject({ code: 0, stderr: "", leftBehind: [] });

    // An error answer keeps its code 1: the closed stdout changes nothing about what the tool did.
    const missing = await runWithClosedStdout(["call", "read", '{"path":"missing.txt"}']);
    expect(missing).toMatchObject({ code: 1, stderr: "", leftBehind: [] });
  });

  it("ends the other printing commands quietly with 0", async () => {
    for (const args of [["tools"], ["status"], ["--help"], ["--version"]]) {
      const result = await runWithClosedStdout(args);
      expect({ args, ...result }).toMatchObject({ args, code: 0, signal: null, stderr: "", leftBehind: [] });
    }
  });
});
