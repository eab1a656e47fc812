import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProcessRoster, type ProcessRosterSettings } from "./process-roster.js";
import {
  liveGroupMembers,
  printedPids,
  processExists,
  untilWorker,
  workerScript,
} from "./test-support/worker-scripts.js";
import type { VibeRosterInstance } from "./vibe-roster.js";

const longWait = () => ({ timeoutMs: 30_000, signal: new AbortController().signal });
const spawnRequest = { brief: "Summarise README.md.", label: "summary", tier: "fast", ceiling: "exec" } as const;

let workdir: string;
const rosters: VibeRosterInstance[] = [];

function roster(settings: Omit<ProcessRosterSettings, "cwd">): VibeRosterInstance {
  const created = createProcessRoster({ cwd: workdir, stopGraceMs: 300, ...settings });
  rosters.push(created);
  return created;
}

async function expectGroupGone(pgid: number, ...pids: number[]): Promise<void> {
  expect(await liveGroupMembers(pgid)).toEqual([]);
  for (const pid of pids) expect(processExists(pid), `process ${pid}`).toBe(false);
}

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), "tool-vibe-")));
});

afterEach(async () => {
  await Promise.all(rosters.splice(0).map((created) => created.dispose()));
  await rm(workdir, { recursive: true, force: true });
});

describe("createProcessRoster with real worker processes", () => {
  it("gives a worker its brief on stdin and the worker variables, and completes with its stdout", async () => {
    const workers = roster({ fast: workerScript("report-brief"), good: workerScript("report-brief") });
    expect(workers.spawn({ ...spawnRequest, tier: "good", ceiling: "write" })).toMatchObject({
      id: "w1",
      status: "running",
    });
    const { snapshot, timedOut } = await workers.wait("w1", longWait());
    expect(timedOut).toBe(false);
    expect(snapshot.status).toBe("completed");
    expect(JSON.parse(snapshot.output)).toEqual({
      brief: "Summarise README.md.",
      tier: "good",
      ceiling: "write",
      id: "w1",
      run: "1",
      cwd: workdir,
    });
  });

  it("hands the host's approval tiers to every worker as RUNBOUND_ASK, `none` for none, and leaves an inherited value alone without them", async () => {
    const inherited = { ...process.env, RUNBOUND_ASK: "exec" };
    const reported = async (settings: Omit<ProcessRosterSettings, "cwd">): Promise<unknown> => {
      const workers = roster({ fast: workerScript("report-brief"), ...settings });
      workers.spawn(spawnRequest);
      return JSON.parse((await workers.wait("w1", longWait())).snapshot.output).ask;
    };
    expect(await reported({ env: inherited, askTiers: ["write", "exec"] })).toBe("write,exec");
    expect(await reported({ env: inherited, askTiers: [] })).toBe("none");
    expect(await reported({ env: inherited })).toBe("exec");
  });

  it("runs a string command line through the shell", async () => {
    const workers = roster({ fast: "read brief; printf 'heard: %s' \"$brief\"" });
    workers.spawn(spawnRequest);
    expect((await workers.wait("w1", longWait())).snapshot).toMatchObject({
      status: "completed",
      output: "heard: Summarise README.md.",
    });
    expect(workers.tiers).toEqual(["fast"]);
    expect(workers.describe()).toContain("fast: `read brief;");
  });

  it("queues workers beyond the concurrency and starts the next when one ends", async () => {
    const workers = roster({ fast: workerScript("sleep-then-answer", "400"), concurrency: 1 });
    workers.spawn(spawnRequest);
    expect(workers.spawn({ ...spawnRequest, label: "second" }).status).toBe("queued");
    const first = await workers.wait("w1", longWait());
    expect(first.snapshot).toMatchObject({ status: "completed" });
    expect(first.snapshot.output).toMatch(/^started \d+\ndone\n$/);
    const second = await untilWorker(workers, "w2", (worker) => worker.status !== "queued");
    expect(second.status).toBe("running");
    expect((await workers.wait("w2", longWait())).snapshot.status).toBe("completed");
  });

  it("re-runs on send with the appended brief and the next run number, after the old process is gone", async () => {
    const workers = roster({ fast: workerScript("sleep-then-answer"), good: workerScript("report-brief") });
    workers.spawn(spawnRequest);
    const running = await untilWorker(workers, "w1", (worker) => worker.output.startsWith("started"));
    const firstPid = printedPids(running.output)["started"]!;
    const sent = await workers.send("w1", "Then list the open issues.", "exec");
    expect(sent).toMatchObject({ previousStatus: "running", snapshot: { run: 2 } });
    await expectGroupGone(firstPid, firstPid);

    workers.spawn({ ...spawnRequest, tier: "good" });
    await workers.wait("w2", longWait());
    await workers.send("w2", "Then list the open issues.", "exec");
    const rerun = await workers.wait("w2", longWait());
    expect(rerun.snapshot).toMatchObject({ status: "completed", run: 2 });
    expect(JSON.parse(rerun.snapshot.output)).toMatchObject({
      brief: "Summarise README.md.\n\nThen list the open issues.",
      run: "2",
    });
  });

  it("answers a wait that times out with the status, and counts repeated waits without progress", async () => {
    const workers = roster({ fast: workerScript("sleep-then-answer", "0", "silent") });
    workers.spawn(spawnRequest);
    const first = await workers.wait("w1", { timeoutMs: 300, signal: new AbortController().signal });
    expect(first).toMatchObject({
      timedOut: true,
      waitsWithoutProgress: 1,
      snapshot: { status: "running", msSinceOutput: null },
    });
    const second = await workers.wait("w1", { timeoutMs: 300, signal: new AbortController().signal });
    expect(second).toMatchObject({ timedOut: true, waitsWithoutProgress: 2 });
    expect(second.snapshot.elapsedMs).toBeGreaterThanOrEqual(first.snapshot.elapsedMs);
  });

  it("reports a failed exit with its code, the last stderr lines and the output so far", async () => {
    const workers = roster({ fast: workerScript("fail-loudly") });
    workers.spawn(spawnRequest);
    const { snapshot } = await workers.wait("w1", longWait());
    expect(snapshot.status).toBe("failed");
    expect(snapshot.output).toBe("partial work\n");
    expect(snapshot.failure).toContain("exited with code 3");
    expect(snapshot.failure).toContain("first complaint\nthe parser broke on line 7");
  });

  it("reports a worker ended by a signal it did not get from the roster", async () => {
    const workers = roster({ fast: "kill -9 $$" });
    workers.spawn(spawnRequest);
    const { snapshot } = await workers.wait("w1", longWait());
    expect(snapshot).toMatchObject({ status: "failed" });
    expect(snapshot.failure).toContain("was ended by signal SIGKILL. It wrote nothing to stderr.");
  });

  it("reports a command that cannot start as a failed worker naming it", async () => {
    const workers = roster({ fast: { command: join(workdir, "no-such-agent") } });
    workers.spawn(spawnRequest);
    const { snapshot } = await workers.wait("w1", longWait());
    expect(snapshot.status).toBe("failed");
    expect(snapshot.failure).toContain("no-such-agent");
    expect(snapshot.failure).toContain("ENOENT");
  });

  it("kills a worker that ignores SIGTERM together with its grandchild, idempotently", async () => {
    const workers = roster({ fast: workerScript("stubborn-tree") });
    workers.spawn(spawnRequest);
    const running = await untilWorker(workers, "w1", (worker) => worker.output.includes("grandchild"));
    const { worker, grandchild } = printedPids(running.output) as { worker: number; grandchild: number };
    expect((await listProcessGroup(worker)).map((row) => row.pid).sort()).toEqual([worker, grandchild].sort());
    expect(await workers.kill("w1")).toMatchObject({ previousStatus: "running", snapshot: { status: "killed" } });
    await expectGroupGone(worker, worker, grandchild);
    expect(await workers.kill("w1")).toMatchObject({ previousStatus: "killed", snapshot: { status: "killed" } });
  });

  it("leaves nothing of any worker's process group when disposed", async () => {
    const workers = roster({ fast: workerScript("stubborn-tree"), concurrency: 3 });
    for (const label of ["one", "two", "three"]) workers.spawn({ ...spawnRequest, label });
    const trees = await Promise.all(
      ["w1", "w2", "w3"].map(async (id) =>
        printedPids((await untilWorker(workers, id, (worker) => worker.output.includes("grandchild"))).output),
      ),
    );
    await workers.dispose();
    for (const { worker, grandchild } of trees) await expectGroupGone(worker!, worker!, grandchild!);
    expect(workers.list().map((worker) => worker.status)).toEqual(["killed", "killed", "killed"]);
  });

  it("needs a command for at least one tier", () => {
    expect(() => createProcessRoster({ cwd: workdir })).toThrow("at least one tier");
  });
});
