import { describe, expect, it } from "vitest";
import { runToCompletion } from "./run-to-completion.js";
import { listProcesses } from "./testing/index.js";

// A parent that starts a grandchild ignoring SIGTERM, prints both pids, then idles ignoring SIGTERM too.
// The tests stop it after 2 s: time enough, even on a loaded machine, for both to start and the pids to be printed.
const treeScript = `
const { spawn } = require("node:child_process");
process.on("SIGTERM", () => {});
const grandchild = spawn(process.execPath, ["-e", 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: "ignore" });
console.log(JSON.stringify({ parent: process.pid, grandchild: grandchild.pid }));
setInterval(() => {}, 1000);
`;

/** The processes of `pids` still in the process table (zombies not counted: they hold nothing). */
async function living(pids: readonly number[]): Promise<number[]> {
  return (await listProcesses()).filter((row) => pids.includes(row.pid) && row.state !== "Z").map((row) => row.pid);
}

function pidsOf(stdout: string): number[] {
  const { parent, grandchild } = JSON.parse(stdout.split("\n")[0]!) as { parent: number; grandchild: number };
  return [parent, grandchild];
}

describe("runToCompletion", () => {
  it("runs a program to its end with its input, and answers its exit, stdout and stderr tail", async () => {
    const run = await runToCompletion({
      command: process.execPath,
      args: [
        "-e",
        'let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => { console.log(s.toUpperCase()); console.error("one\\ntwo"); process.exit(3); });',
      ],
      input: "hello",
    });
    expect(run).toMatchObject({
      ending: "exited",
      exit: { code: 3, signal: null },
      stdout: "HELLO\n",
      stdoutCut: false,
      stderr: ["one", "two"],
    });
  });

  it("keeps only the head of a large stdout, reading the rest so the program never blocks", async () => {
    const run = await runToCompletion({
      command: process.execPath,
      args: ["-e", 'process.stdout.write("x".repeat(1_000_000))'],
      maxOutputBytes: 10,
    });
    expect([run.ending, run.exit.code, run.stdout, run.stdoutCut]).toEqual(["exited", 0, "xxxxxxxxxx", true]);
  });

  it("stops the whole process group at the timeout, even members that ignore SIGTERM, and leaves nothing in the process table", async () => {
    const run = await runToCompletion({
      command: process.execPath,
      args: ["-e", treeScript],
      timeoutMs: 2_000,
      graceMs: 200,
    });
    expect(run.ending).toBe("timed_out");
    expect(run.exit.signal).toBe("SIGKILL");
    expect(await living(pidsOf(run.stdout))).toEqual([]);
  });

  it("stops the whole process group when the signal aborts, and leaves nothing in the process table", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("caller left")), 2_000);
    const run = await runToCompletion({
      command: process.execPath,
      args: ["-e", treeScript],
      signal: controller.signal,
      graceMs: 200,
    });
    expect(run.ending).toBe("aborted");
    expect(await living(pidsOf(run.stdout))).toEqual([]);
  });

  it("starts nothing when the signal aborted first, and rejects with the spawn error for a missing program", async () => {
    await expect(
      runToCompletion({ command: process.execPath, signal: AbortSignal.abort(new Error("too late")) }),
    ).rejects.toThrow("too late");
    await expect(runToCompletion({ command: "/nonexistent/runbound-no-such-program" })).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});
