import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { createFunctionRoster, type RosterSettings, type WorkerRunRequest } from "./function-roster.js";
import type { VibeRosterInstance } from "./vibe-roster.js";

interface ScriptedRun extends WorkerRunRequest {
  resolve(result: string): void;
  reject(error: unknown): void;
}

// Every run waits for the test to resolve or reject it; unless `ignoreSignal`, a stop rejects it at once.
function scriptedRoster(settings: RosterSettings & { ignoreSignal?: boolean } = {}): {
  roster: VibeRosterInstance;
  runs: ScriptedRun[];
} {
  const runs: ScriptedRun[] = [];
  const roster = createFunctionRoster(
    (request) =>
      new Promise<string>((resolve, reject) => {
        runs.push({ ...request, resolve, reject });
        if (settings.ignoreSignal !== true)
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
      }),
    settings,
  );
  return { roster, runs };
}

const spawnRequest = { brief: "Count the TODOs.", label: "todos", tier: "fast", ceiling: "exec" } as const;
const shortWait = (timeoutMs = 50) => ({ timeoutMs, signal: new AbortController().signal });

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<ToolError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("createFunctionRoster", () => {
  it("starts a spawned worker at once, streams its output and completes with the result", async () => {
    const { roster, runs } = scriptedRoster();
    const spawned = roster.spawn(spawnRequest);
    expect(spawned).toMatchObject({
      id: "w1",
      label: "todos",
      tier: "fast",
      status: "running",
      run: 1,
      output: "",
      msSinceOutput: null,
      failure: null,
    });
    await Promise.resolve();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ workerId: "w1", run: 1, brief: "Count the TODOs.", tier: "fast", ceiling: "exec" });
    runs[0]!.onOutput("");
    expect(roster.list()[0]).toMatchObject({ output: "", msSinceOutput: null });
    runs[0]!.onOutput("3 so far");
    const streaming = roster.list()[0]!;
    expect(streaming).toMatchObject({ status: "running", output: "3 so far" });
    for (const ms of [streaming.msSinceOutput!, streaming.elapsedMs]) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(60_000);
    }
    const waiting = roster.wait("w1", shortWait(20_000));
    runs[0]!.resolve("7 TODOs");
    const outcome = await waiting;
    expect(outcome).toMatchObject({ timedOut: false, waitsWithoutProgress: 0 });
    expect(outcome.snapshot).toMatchObject({ status: "completed", output: "7 TODOs" });
    // Output after the end changes nothing.
    runs[0]!.onOutput(" and more");
    expect(roster.list()[0]!.output).toBe("7 TODOs");
    expect(roster.spawn(spawnRequest).id).toBe("w2");
  });

  it("keeps the dropped-character count when the result is the text already streamed", async () => {
    const { roster, runs } = scriptedRoster({ maxOutputChars: 4 });
    roster.spawn(spawnRequest);
    await Promise.resolve();
    runs[0]!.onOutput("abcdef");
    runs[0]!.onOutput("");
    runs[0]!.resolve("cdef");
    const { snapshot } = await roster.wait("w1", shortWait(20_000));
    expect(snapshot).toMatchObject({ output: "cdef", droppedChars: 2 });
  });

  it("reports a thrown error as the failure, and a blank one as a sentence", async () => {
    const { roster, runs } = scriptedRoster();
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    await Promise.resolve();
    runs[0]!.reject(new Error("The parser broke."));
    runs[1]!.reject(new Error("  \n"));
    expect((await roster.wait("w1", shortWait(20_000))).snapshot).toMatchObject({
      status: "failed",
      failure: "The parser broke.",
    });
    expect((await roster.wait("w2", shortWait(20_000))).snapshot).toMatchObject({
      status: "failed",
      failure: "The worker failed without saying why.",
    });
  });

  it("queues workers beyond the concurrency and starts them in order as slots free", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 2 });
    expect(["w1", "w2", "w3", "w4"].map(() => roster.spawn(spawnRequest).status)).toEqual([
      "running",
      "running",
      "queued",
      "queued",
    ]);
    await Promise.resolve();
    expect(runs.map((run) => run.workerId)).toEqual(["w1", "w2"]);
    runs[1]!.resolve("two");
    await roster.wait("w2", shortWait(20_000));
    expect(runs.map((run) => run.workerId)).toEqual(["w1", "w2", "w3"]);
    expect(roster.list().map((worker) => worker.status)).toEqual(["running", "completed", "running", "queued"]);
    expect(roster.describe()).toContain("2 of 2 slots busy");
  });

  it("re-runs a running worker on send: the old run is stopped and ignored, the new one gets the appended brief", async () => {
    const { roster, runs } = scriptedRoster({ ignoreSignal: true, settleGraceMs: 50 });
    roster.spawn(spawnRequest);
    await Promise.resolve();
    runs[0]!.onOutput("old output");
    const sent = roster.send("w1", "Only in src/.", "exec");
    expect(runs[0]!.signal.aborted).toBe(true);
    expect((runs[0]!.signal.reason as ToolError).message).toBe("Worker `w1` was stopped.");
    runs[0]!.resolve("late result of run 1");
    const { previousStatus, snapshot } = await sent;
    expect(previousStatus).toBe("running");
    expect(snapshot).toMatchObject({
      run: 2,
      status: "running",
      output: "",
      brief: "Count the TODOs.\n\nOnly in src/.",
    });
    expect(runs[1]).toMatchObject({ run: 2, brief: "Count the TODOs.\n\nOnly in src/." });
    runs[1]!.resolve("4 TODOs in src/");
    expect((await roster.wait("w1", shortWait(20_000))).snapshot).toMatchObject({
      status: "completed",
      run: 2,
      output: "4 TODOs in src/",
    });
  });

  it("gives a re-run the slot its worker held, ahead of the queue", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1 });
    roster.spawn(spawnRequest);
    roster.spawn({ ...spawnRequest, label: "second" });
    await Promise.resolve();
    await roster.send("w1", "Again.", "exec");
    expect(runs.map((run) => `${run.workerId}#${run.run}`)).toEqual(["w1#1", "w1#2"]);
    expect(roster.list().map((worker) => worker.status)).toEqual(["running", "queued"]);
  });

  it("amends a queued worker in place, and re-runs an ended one at the back of the queue", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1 });
    roster.spawn(spawnRequest);
    roster.spawn({ ...spawnRequest, brief: "Second." });
    await Promise.resolve();
    expect(await roster.send("w2", "Amended.", "exec")).toMatchObject({
      previousStatus: "queued",
      snapshot: { status: "queued", run: 2 },
    });
    runs[0]!.resolve("one");
    await roster.wait("w1", shortWait(20_000));
    expect(runs[1]).toMatchObject({ workerId: "w2", run: 2, brief: "Second.\n\nAmended." });
    expect(await roster.send("w1", "Once more.", "exec")).toMatchObject({
      previousStatus: "completed",
      snapshot: { status: "queued", run: 2 },
    });
    runs[1]!.resolve("two");
    await roster.wait("w2", shortWait(20_000));
    expect(runs[2]).toMatchObject({ workerId: "w1", run: 2, brief: "Count the TODOs.\n\nOnce more." });
  });

  it("kills idempotently: a running worker is stopped, a queued one never starts, an ended one keeps its status", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1 });
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    await Promise.resolve();
    expect(await roster.kill("w1")).toMatchObject({ previousStatus: "running", snapshot: { status: "killed" } });
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(await roster.kill("w1")).toMatchObject({ previousStatus: "killed", snapshot: { status: "killed" } });
    runs[1]!.resolve("done");
    await roster.wait("w2", shortWait(20_000));
    expect(await roster.kill("w2")).toMatchObject({
      previousStatus: "completed",
      snapshot: { status: "completed", output: "done" },
    });
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    expect(await roster.kill("w4")).toMatchObject({ previousStatus: "queued", snapshot: { status: "killed" } });
    runs[2]!.resolve("three");
    await roster.wait("w3", shortWait(20_000));
    expect(runs.map((run) => run.workerId)).toEqual(["w1", "w2", "w3"]);
  });

  it("refuses to re-run a killed worker, naming it and the way out", async () => {
    const { roster } = scriptedRoster();
    roster.spawn(spawnRequest);
    await roster.kill("w1");
    const error = await rejection(roster.send("w1", "Again.", "exec"));
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("`w1`");
    expect(error.message).toContain("vibe_spawn");
  });

  it("answers not_found for an unknown id, listing the known ones or saying there are none", async () => {
    const { roster } = scriptedRoster();
    const none = await rejection(roster.wait("w1", shortWait()));
    expect(none.code).toBe("not_found");
    expect(none.message).toContain("no worker has been spawned");
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    for (const call of [
      () => roster.wait("w9", shortWait()),
      () => roster.kill("w9"),
      () => roster.send("w9", "x", "exec"),
    ]) {
      const error = await rejection(call);
      expect(error.code).toBe("not_found");
      expect(error.message).toContain("`w9`");
      expect(error.message).toContain("`w1`, `w2`");
    }
  });

  it("counts waits in a row that time out without progress, and resets on output or on the end", async () => {
    const { roster, runs } = scriptedRoster();
    roster.spawn(spawnRequest);
    await Promise.resolve();
    const first = await roster.wait("w1", shortWait());
    expect(first).toMatchObject({ timedOut: true, waitsWithoutProgress: 1, snapshot: { status: "running" } });
    expect((await roster.wait("w1", shortWait())).waitsWithoutProgress).toBe(2);
    runs[0]!.onOutput("still here");
    expect((await roster.wait("w1", shortWait())).waitsWithoutProgress).toBe(0);
    expect((await roster.wait("w1", shortWait())).waitsWithoutProgress).toBe(1);
    runs[0]!.resolve("finished");
    expect(await roster.wait("w1", shortWait())).toMatchObject({ timedOut: false, waitsWithoutProgress: 0 });
    // After an ended wait, the count starts afresh for the next run.
    await roster.send("w1", "Again.", "exec");
    expect((await roster.wait("w1", shortWait())).waitsWithoutProgress).toBe(1);
  });

  it("ends a wait when the caller's signal aborts, with its reason, leaving the worker running", async () => {
    const { roster } = scriptedRoster();
    roster.spawn(spawnRequest);
    const controller = new AbortController();
    const waiting = roster.wait("w1", { timeoutMs: 60_000, signal: controller.signal });
    const startedAt = Date.now();
    setTimeout(() => controller.abort(new ToolError({ code: "cancelled", message: "The caller gave up." })), 30);
    const error = await rejection(waiting);
    expect(error.message).toBe("The caller gave up.");
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    expect(roster.list()[0]!.status).toBe("running");
    const already = await rejection(roster.wait("w1", { timeoutMs: 60_000, signal: controller.signal }));
    expect(already.code).toBe("cancelled");
    const timedOut = new AbortController();
    timedOut.abort(new DOMException("The deadline passed.", "TimeoutError"));
    const timeout = await rejection(roster.wait("w1", { timeoutMs: 60_000, signal: timedOut.signal }));
    expect(timeout.code).toBe("timeout");
    expect(timeout.message).toContain("ran past the call's own time limit");
    const plain = new AbortController();
    plain.abort();
    const cancelled = await rejection(roster.wait("w1", { timeoutMs: 60_000, signal: plain.signal }));
    expect(cancelled).toMatchObject({ code: "cancelled" });
    expect(cancelled.message).toContain("`w1`");
  });

  it("gives a worker the lower of its callers' ceilings and the roster's own", async () => {
    const { roster, runs } = scriptedRoster({ ceiling: "write" });
    roster.spawn({ ...spawnRequest, ceiling: "exec" });
    roster.spawn({ ...spawnRequest, ceiling: "read" });
    await Promise.resolve();
    expect(runs.map((run) => run.ceiling)).toEqual(["write", "read"]);
    // A plan-mode caller re-running a main caller's worker narrows it; nothing widens it back.
    await roster.send("w1", "Look only.", "read");
    await roster.send("w1", "Now change it.", "exec");
    expect(runs.slice(2).map((run) => run.ceiling)).toEqual(["read", "read"]);
    expect(roster.list()[0]!.ceiling).toBe("read");
  });

  it("refuses a tier it cannot run and more than its most workers", async () => {
    const { roster } = scriptedRoster({ tiers: ["fast"], maxWorkers: 1 });
    const tier = await rejection(() => roster.spawn({ ...spawnRequest, tier: "good" }));
    expect(tier.code).toBe("unavailable");
    expect(tier.message).toContain("`good`");
    expect(tier.message).toContain("`fast`");
    roster.spawn(spawnRequest);
    const full = await rejection(() => roster.spawn(spawnRequest));
    expect(full.code).toBe("unavailable");
    expect(full.message).toContain("1 workers");
  });

  it("kills every worker on dispose, refuses new ones, and is idempotent", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1 });
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    await Promise.resolve();
    const disposing = roster.dispose();
    expect(roster.dispose()).toBe(disposing);
    await disposing;
    expect(runs).toHaveLength(1);
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(roster.list().map((worker) => worker.status)).toEqual(["killed", "killed"]);
    const refused = await rejection(() => roster.spawn(spawnRequest));
    expect(refused.code).toBe("unavailable");
    expect(refused.message).toContain("has been shut down");
    expect((await rejection(roster.send("w1", "x", "exec"))).code).toBe("unavailable");
    expect(roster.describe()).toContain("shut down");
  });

  it("frees the slot of a run that ignores its stop after the settle grace", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1, ignoreSignal: true, settleGraceMs: 100 });
    roster.spawn(spawnRequest);
    roster.spawn(spawnRequest);
    await Promise.resolve();
    const startedAt = Date.now();
    await roster.kill("w1");
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(90);
    expect(runs.map((run) => run.workerId)).toEqual(["w1", "w2"]);
    // The stuck run settling later neither revives its worker nor frees a second slot.
    runs[0]!.resolve("too late");
    roster.spawn(spawnRequest);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(roster.list().map((worker) => worker.status)).toEqual(["killed", "running", "queued"]);
  });

  it("describes its tiers, slots, ceiling, workers and runner", () => {
    const { roster } = scriptedRoster({ describeRunner: () => "fast: `agent`" });
    expect(roster.describe()).toBe(
      "open; tiers fast, good; 0 of 2 slots busy; workers' own ceiling exec\n0 workers\nfast: `agent`",
    );
    roster.spawn(spawnRequest);
    expect(roster.describe()).toContain("1 worker (1 running)");
    const plain = scriptedRoster({ concurrency: 1 }).roster;
    plain.spawn(spawnRequest);
    plain.spawn(spawnRequest);
    expect(plain.describe()).toBe(
      "open; tiers fast, good; 1 of 1 slots busy; workers' own ceiling exec\n2 workers (1 running, 1 queued)",
    );
  });

  it("keeps a wait going through output until the run ends", async () => {
    const { roster, runs } = scriptedRoster();
    roster.spawn(spawnRequest);
    const waiting = roster.wait("w1", shortWait(20_000));
    runs[0]!.onOutput("progress");
    const early = await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 50, "still waiting"))]);
    expect(early).toBe("still waiting");
    runs[0]!.resolve("done");
    expect((await waiting).snapshot.status).toBe("completed");
  });

  it("keeps a worker killed during a send's restart killed, and the queue intact", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1, ignoreSignal: true, settleGraceMs: 100 });
    roster.spawn(spawnRequest);
    roster.spawn({ ...spawnRequest, label: "second" });
    const sending = roster.send("w1", "Again.", "exec");
    await roster.kill("w1");
    await sending;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs.map((run) => `${run.workerId}#${run.run}`)).toEqual(["w1#1", "w2#1"]);
    expect(roster.list().map((worker) => worker.status)).toEqual(["killed", "running"]);
  });

  it("folds two sends during one restart into a single next run", async () => {
    const { roster, runs } = scriptedRoster({ concurrency: 1, ignoreSignal: true, settleGraceMs: 100 });
    roster.spawn(spawnRequest);
    const [first, second] = await Promise.all([roster.send("w1", "A.", "exec"), roster.send("w1", "B.", "exec")]);
    expect([first.previousStatus, second.previousStatus]).toEqual(["running", "queued"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs.map((run) => `${run.workerId}#${run.run}`)).toEqual(["w1#1", "w1#3"]);
    expect(runs[1]!.brief).toBe("Count the TODOs.\n\nA.\n\nB.");
    runs[1]!.resolve("done");
    await roster.wait("w1", shortWait(20_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toHaveLength(2);
    expect(roster.list()[0]!.status).toBe("completed");
  });

  it("rejects settings that are not whole numbers of at least 1", () => {
    expect(() => createFunctionRoster(async () => "", { concurrency: 0 })).toThrow("`concurrency` is `0`");
    expect(() => createFunctionRoster(async () => "", { maxWorkers: 1.5 })).toThrow("`maxWorkers`");
    expect(() => createFunctionRoster(async () => "", { maxOutputChars: -1 })).toThrow("`maxOutputChars`");
  });
});
