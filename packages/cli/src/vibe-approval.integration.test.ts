import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listProcesses } from "@runbound/process-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { binPath, runCli } from "./__fixtures__/run-cli.js";
import { resultTextOf, runSession } from "./__fixtures__/run-session.js";

// Issue 22 item 1: vibe_spawn is a read tool, never asked about, so the approval policy of the run
// that spawns a worker must travel with the worker, or `--ask` is bypassed by asking a worker.
let project: string;

beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-vibe-approval-")));
});

afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

/** A `runbound session` worker that first appends its pid to `pids.txt` (`exec` keeps the shell's pid). */
function sessionWorker(): string {
  return `echo $$ >> "${join(project, "pids.txt")}"; exec "${process.execPath}" "${binPath}" session -C "${project}"`;
}



/** Every worker pid recorded, each checked against the process table: gone, its process group too. */
async function expectWorkersGone(expectedCount: number): Promise<void> {
  const pids = (await readFile(join(project, "pids.txt"), "utf8")).trim().split("\n").map(Number);
  expect(pids).toHaveLength(expectedCount);
  const live = (await listProcesses()).filter((row) => row.state !== "Z");
  expect(live.filter((row) => pids.includes(row.pid) || pids.includes(row.pgid))).toEqual([]);
}

// The environment of the test itself must not decide the outcome (a test run started as a worker).
function cleanEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  delete environment["RUNBOUND_ASK"];
  delete environment["RUNBOUND_CEILING"];
  return environment;
}

describe("the approval policy travels with a vibe worker", () => {
  it("keeps a runbound session worker of an --ask write,exec caller from writing, and says why", async () => {
    const target = join(project, "worker-wrote.txt");
    const brief = JSON.stringify({ id: 1, tool: "write", input: { path: "worker-wrote.txt", content: "written by the worker\n" } });
    const responses = await runSession(project, ["--ask", "write,exec", "--vibe", "--worker-fast", sessionWorker()], [
      { id: 1, tool: "write", input: { path: "caller-wrote.txt", content: "direct\n" } },
      { id: 2, tool: "vibe_spawn", input: { brief, label: "writer" } },
      { id: 3, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
    ], cleanEnvironment());
    // The direct write is denied, as before.
    expect(resultTextOf(responses[0]!)).toContain("needs approval");
    expect(existsSync(join(project, "caller-wrote.txt"))).toBe(false);
    // The worker ran (its session answered) but its write was denied in its own run.
    expect(existsSync(target)).toBe(false);
    const waited = resultTextOf(responses[2]!);
    expect(waited).toContain("completed");
    expect(waited).toContain("RUNBOUND_ASK=write,exec");
    expect(waited).toContain("no operator of that caller can be reached from a worker");
    await expectWorkersGone(1);
  });

  it("passes the policy on to a worker's own workers, and lets an unasked caller's worker write", async () => {
    // A worker that is itself in vibe mode hands its caller's policy on: the grandchild cannot write either.
    const grandchildBrief = JSON.stringify({ id: 1, tool: "write", input: { path: "grandchild-wrote.txt", content: "x\n" } });
    const childBrief = [
      JSON.stringify({ id: 1, tool: "vibe_spawn", input: { brief: grandchildBrief, label: "grandchild" } }),
      JSON.stringify({ id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } }),
    ].join("\n");
    const nestedWorker = `echo $$ >> "${join(project, "pids.txt")}"; exec "${process.execPath}" "${binPath}" session -C "${project}" --vibe --worker-fast '${sessionWorker().replaceAll("'", "'\\''")}'`;
    const nested = await runSession(project, ["--ask", "write", "--vibe", "--worker-fast", nestedWorker], [
      { id: 1, tool: "vibe_spawn", input: { brief: childBrief, label: "spawner" } },
      { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
    ], cleanEnvironment());
    expect(existsSync(join(project, "grandchild-wrote.txt"))).toBe(false);
    expect(resultTextOf(nested[1]!)).toContain("no operator of that caller can be reached from a worker");
    await expectWorkersGone(2);

    // Without --ask nothing is asked, so the same kind of worker writes: the denial came from the policy.
    await rm(join(project, "pids.txt"));
    const brief = JSON.stringify({ id: 1, tool: "write", input: { path: "allowed.txt", content: "ok\n" } });
    const unasked = await runSession(project, ["--vibe", "--worker-fast", sessionWorker()], [
      { id: 1, tool: "vibe_spawn", input: { brief, label: "writer" } },
      { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
    ], cleanEnvironment());
    expect(resultTextOf(unasked[1]!)).toContain("completed");
    expect(await readFile(join(project, "allowed.txt"), "utf8")).toBe("ok\n");
    await expectWorkersGone(1);
  });

  it("refuses an empty RUNBOUND_CEILING and a malformed RUNBOUND_ASK before opening a run", async () => {
    const emptyCeiling = await runCli(["tools", "-C", project], { env: { ...cleanEnvironment(), RUNBOUND_CEILING: "" } });
    expect(emptyCeiling.code).toBe(2);
    expect(emptyCeiling.stderr).toContain("The environment variable RUNBOUND_CEILING is empty");
    const badAsk = await runCli(["tools", "-C", project], { env: { ...cleanEnvironment(), RUNBOUND_ASK: "write,root" } });
    expect(badAsk.code).toBe(2);
    expect(badAsk.stderr).toContain("`write,root`");
  });
});
