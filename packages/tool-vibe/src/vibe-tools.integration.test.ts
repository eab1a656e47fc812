import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRun, MAIN_CALLER, PLAN_CALLER, type Run } from "@runbound/runner-adapter";
import { resultErrorCode, resultText, VibeMode, type CallerInfo } from "@runbound/tool-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFunctionRoster, type WorkerRunRequest } from "./function-roster.js";
import { vibePlugin } from "./plugin.js";
import { createProcessRoster } from "./process-roster.js";
import {
  liveGroupMembers,
  printedPids,
  processExists,
  untilWorker,
  workerScript,
} from "./test-support/worker-scripts.js";
import { VibeRoster, type VibeRosterInstance } from "./vibe-roster.js";

let workdir: string;
const runs: Run[] = [];

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), "tool-vibe-tools-")));
});

afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.close()));
  await rm(workdir, { recursive: true, force: true });
});

// Both rosters behave alike: `fast` answers at once with what it was given, `good` runs (silently)
// until it is stopped, and prints its process id first when it is a process.
function reportOrHang(request: WorkerRunRequest): Promise<string> {
  if (request.tier === "fast") {
    return Promise.resolve(
      JSON.stringify({
        brief: request.brief,
        tier: request.tier,
        ceiling: request.ceiling,
        id: request.workerId,
        run: String(request.run),
      }),
    );
  }
  return new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
}

const rosters: Array<[string, () => VibeRosterInstance]> = [
  [
    "process",
    () =>
      createProcessRoster({
        fast: workerScript("report-brief"),
        good: workerScript("sleep-then-answer", "0", "silent"),
        cwd: workdir,
        stopGraceMs: 300,
      }),
  ],
  ["function", () => createFunctionRoster(reportOrHang)],
];

async function openRun(roster: VibeRosterInstance, caller: CallerInfo = MAIN_CALLER): Promise<Run> {
  const run = createRun({ plugins: [vibePlugin], caller });
  runs.push(run);
  await run.attach(VibeRoster, { value: roster, dispose: () => roster.dispose(), describe: () => roster.describe() });
  await run.attach(VibeMode, { value: { defaultWorkerTier: "fast" } });
  return run;
}

async function call(
  run: Run,
  tool: string,
  input: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ text: string; structured: Record<string, unknown>; code: string | undefined }> {
  const result = await run.call(tool, input, { signal });
  return { text: resultText(result), structured: result.structured ?? {}, code: resultErrorCode(result) };
}

describe.each(rosters)("the vibe tools over a %s roster", (_kind, createRoster) => {
  it("spawns at once with the id stated plainly, then waits for the result and lists the worker", async () => {
    const run = await openRun(createRoster());
    const spawned = await call(run, "vibe_spawn", { brief: "Count the TODOs.", label: "todos" });
    expect(spawned.text.split("\n")[0]).toBe("worker_id: w1");
    expect(spawned.text).toContain("at tier fast");
    expect(spawned.text).toContain("up to tier `exec`");

    const waited = await call(run, "vibe_wait", { worker_id: "w1" });
    expect(waited.code).toBeUndefined();
    expect(waited.text).toMatch(/^worker_id: w1\nstatus: completed \(run 1, elapsed \d+\.\d s\)\nresult:\n\{/);
    expect(waited.text).toContain('"brief":"Count the TODOs."');
    expect(waited.structured).toMatchObject({
      timed_out: false,
      waits_without_progress: 0,
      worker: { worker_id: "w1", status: "completed" },
    });

    await call(run, "vibe_spawn", { brief: "Wait for me.", label: "hanger", tier: "good" });
    const listed = await call(run, "vibe_list", {});
    expect(listed.text).toMatch(/^2 workers \(1 completed, 1 running\); at most 2 run at once\.\n/);
    expect(listed.text).toMatch(
      /w1 "todos" tier fast, completed \(run 1, elapsed [\d.]+ s\)\n {4}result: \{"brief":"Count the TODOs\."/,
    );
    expect(listed.text).toMatch(/w2 "hanger" tier good, running \(run 1, elapsed [\d.]+ s, no output yet\)/);
    const [first, second] = (listed.structured["workers"] as Array<Record<string, unknown>>) ?? [];
    expect(first).toMatchObject({
      worker_id: "w1",
      label: "todos",
      tier: "fast",
      status: "completed",
      run: 1,
      ceiling: "exec",
      failure: null,
    });
    expect(first!["last_result"]).toContain("Count the TODOs.");
    expect(typeof first!["elapsed_seconds"]).toBe("number");
    expect(second).toMatchObject({ worker_id: "w2", status: "running", seconds_since_output: null, last_result: null });
  });

  it("gives a plan-mode caller's workers a read-only ceiling", async () => {
    const run = await openRun(createRoster(), PLAN_CALLER);
    expect(
      run
        .visibleTools()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(["vibe_kill", "vibe_list", "vibe_send", "vibe_spawn", "vibe_wait"]);
    expect((await call(run, "vibe_spawn", { brief: "Look around.", label: "look" })).text).toContain(
      "up to tier `read`",
    );
    expect((await call(run, "vibe_wait", { worker_id: "w1" })).text).toContain('"ceiling":"read"');
  });

  it("re-runs on send, saying the run number, with the message appended to the brief", async () => {
    const run = await openRun(createRoster());
    await call(run, "vibe_spawn", { brief: "Count the TODOs.", label: "todos" });
    await call(run, "vibe_wait", { worker_id: "w1" });
    const sent = await call(run, "vibe_send", { worker_id: "w1", message: "Only in src/." });
    expect(sent.text).toMatch(
      /^worker_id: w1\nRun 2 of worker `w1` has your message appended to its brief and is (queued|running|completed); run 1 had completed\./,
    );
    const waited = await call(run, "vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain("status: completed (run 2,");
    expect(waited.text).toContain('"brief":"Count the TODOs.\\n\\nOnly in src/."');
  });

  it("answers a wait that times out with the status, not an error, and says when waits make no progress", async () => {
    const run = await openRun(createRoster());
    await call(run, "vibe_spawn", { brief: "Wait for me.", label: "hanger", tier: "good" });
    const first = await call(run, "vibe_wait", { worker_id: "w1", timeout_seconds: 1 });
    expect(first.code).toBeUndefined();
    expect(first.text).toMatch(
      /^worker_id: w1\nstatus: running \(run 1, elapsed [\d.]+ s, no output yet\)\nStill running after this 1\.0 s wait; that is not a failure\.\nIt made no progress since your last wait/,
    );
    expect(first.structured).toMatchObject({ timed_out: true, waits_without_progress: 1 });
    const second = await call(run, "vibe_wait", { worker_id: "w1", timeout_seconds: 1 });
    expect(second.text).toContain("This is wait 2 in a row without any progress");
    expect(second.text).toContain("vibe_kill");
    expect(second.text).toContain("vibe_send");
  });

  it("kills idempotently and reports an ended worker as ended", async () => {
    const run = await openRun(createRoster());
    await call(run, "vibe_spawn", { brief: "Wait for me.", label: "hanger", tier: "good" });
    expect((await call(run, "vibe_kill", { worker_id: "w1" })).text).toBe(
      "worker_id: w1\nWorker `w1` was running and has been stopped, with every process it started.",
    );
    expect((await call(run, "vibe_kill", { worker_id: "w1" })).text).toBe(
      "worker_id: w1\nWorker `w1` was already killed; nothing to do.",
    );
    expect((await call(run, "vibe_wait", { worker_id: "w1" })).text).toContain("status: killed (run 1,");
    await call(run, "vibe_spawn", { brief: "Quick.", label: "quick" });
    await call(run, "vibe_wait", { worker_id: "w2" });
    const ended = await call(run, "vibe_kill", { worker_id: "w2" });
    expect(ended.text).toContain("had already ended (completed); nothing to stop");
    expect(ended.structured).toMatchObject({
      previous_status: "completed",
      worker: { status: "completed", last_result: expect.stringContaining("Quick.") },
    });
    const rerun = await call(run, "vibe_send", { worker_id: "w1", message: "Again." });
    expect(rerun.code).toBe("conflict");
  });

  it("answers not_found for an unknown id, naming it and the known ones", async () => {
    const run = await openRun(createRoster());
    await call(run, "vibe_spawn", { brief: "Quick.", label: "quick" });
    for (const tool of ["vibe_wait", "vibe_kill", "vibe_send"]) {
      const answer = await call(run, tool, { worker_id: "w7", ...(tool === "vibe_send" ? { message: "x" } : {}) });
      expect(answer.code).toBe("not_found");
      expect(answer.text).toContain("`w7`");
      expect(answer.text).toContain("`w1`");
    }
  });

  it("stops waiting when the call is cancelled, leaving the worker running", async () => {
    const run = await openRun(createRoster());
    await call(run, "vibe_spawn", { brief: "Wait for me.", label: "hanger", tier: "good" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const startedAt = Date.now();
    const answer = await call(run, "vibe_wait", { worker_id: "w1", timeout_seconds: 600 }, controller.signal);
    expect(answer.code).toBe("cancelled");
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect((await call(run, "vibe_list", {})).text).toContain("running");
  });

  it("refuses inputs out of range, naming the field", async () => {
    const run = await openRun(createRoster());
    expect((await call(run, "vibe_spawn", { brief: "x", label: "y", tier: "medium" })).code).toBe("invalid_input");
    const blank = await call(run, "vibe_spawn", { brief: "x", label: "  " });
    expect(blank).toMatchObject({ code: "invalid_input" });
    expect(blank.text).toContain("`label` is empty");
    const long = await call(run, "vibe_spawn", { brief: "x".repeat(100_001), label: "y" });
    expect(long.text).toContain("`brief` is 100001 characters long; the limit is 100000 characters.");
    for (const seconds of [0, 601]) {
      const wait = await call(run, "vibe_wait", { worker_id: "w1", timeout_seconds: seconds });
      expect(wait.code).toBe("invalid_input");
      expect(wait.text).toContain(`\`timeout_seconds\` is \`${seconds}\`; give a number of seconds from 1 to 600`);
    }
    expect((await call(run, "vibe_send", { worker_id: "w1", message: "" })).text).toContain("`message` is empty");
  });
});

describe("the vibe tools and the run", () => {
  it("lose their workers, process trees included, when the run closes", async () => {
    const roster = createProcessRoster({ fast: workerScript("stubborn-tree"), cwd: workdir, stopGraceMs: 300 });
    const run = await openRun(roster);
    await call(run, "vibe_spawn", { brief: "Hang on.", label: "stubborn" });
    const { worker, grandchild } = printedPids(
      (await untilWorker(roster, "w1", (snapshot) => snapshot.output.includes("grandchild"))).output,
    );
    await run.close();
    expect(await liveGroupMembers(worker!)).toEqual([]);
    expect(processExists(grandchild!)).toBe(false);
    expect(roster.list()[0]!.status).toBe("killed");
  });

  it("are absent without a roster, and the host says which resource is missing", async () => {
    const run = createRun({ plugins: [vibePlugin] });
    runs.push(run);
    expect(run.visibleTools()).toEqual([]);
    for (const status of run.toolStatus())
      expect(status.hidden).toMatchObject({
        kind: "resources",
        missing: [{ id: "vibe.roster" }, { id: "run.vibe_mode" }],
      });
  });
});
