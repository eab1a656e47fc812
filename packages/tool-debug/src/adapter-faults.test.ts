import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listDescendants } from "@runbound/runtime-kit/testing";
import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDefinition } from "./adapter-table.js";
import type { DebugSupervisorSettings } from "./debug-supervisor.js";
import { debugTestRuns, type DebugTestRun } from "./test-support/debug-test-run.js";
import { stillRunning, supportFile } from "./test-support/real-adapters.js";

const fakeAdapterScript = supportFile("fake-adapter.mjs");

// Read synchronously: whether `pid` runs (a zombie does not: it has exited, only its parent has not reaped it).
function runningNow(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function fakeAdapter(mode: string): AdapterDefinition {
  return {
    id: "lldb",
    markers: ["fake.marker"],
    dapAdapterId: "fake",
    transport: "stdio",
    locate: async () => ({
      command: process.execPath,
      args: [fakeAdapterScript, mode],
      detail: `fake adapter (${mode})`,
    }),
    launchArguments: (request) => ({ program: request.program }),
    accepts: () => true,
    builds: () => false,
  };
}

const fakeApp = debugTestRuns("fake-app");
const dartApp = debugTestRuns("dart-app");
const setUp = (settings: DebugSupervisorSettings, fixture: "fake-app" | "dart-app" = "fake-app"): DebugTestRun =>
  (fixture === "fake-app" ? fakeApp : dartApp)(settings);

// The fake adapters this test process started that still run (by the process table).
async function fakeAdaptersRunning(): Promise<number[]> {
  const rows = await listDescendants(process.pid);
  return rows
    .filter((row) => row.state !== "Z" && readFileSync(`/proc/${row.pid}/cmdline`, "utf8").includes("fake-adapter.mjs"))
    .map((row) => row.pid);
}

describe("faults of the debug adapter (scripted adapters run as real processes)", () => {
  // Issue 22 item 5: these were `invalid_input` ("Fix the program or its path"); the adapter failed, not the program.
  it("an adapter that exits during the launch is unavailable, naming its exit code and stderr, and nothing is left", async () => {
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("crash-on-launch")] });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.isError).toBe(true);
    expect(launch.code).toBe("unavailable");
    expect(launch.text).toContain(
      `The lldb debug adapter failed while launching \`program.fake\`: The debug adapter \`${process.execPath}\` exited with code 3 during the launch.`,
    );
    expect(launch.text).toContain("[adapter stderr] fake adapter: lost the debuggee's state");
    expect(launch.text).toContain("Check the adapter (op `adapters`");
    expect(launch.text).not.toContain("Fix the program");
    expect(supervisor.status("conversation-1").session).toBeUndefined();
    expect(await fakeAdaptersRunning()).toEqual([]);
  });

  it("an adapter killed by a signal during the launch is unavailable, naming the signal", async () => {
    const { call } = setUp({ adapters: [fakeAdapter("killed-on-launch")] });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.code).toBe("unavailable");
    expect(launch.text).toContain("was killed by SIGKILL during the launch.");
    expect(await fakeAdaptersRunning()).toEqual([]);
  });

  it("an adapter that never answers is unavailable within the handshake budget, naming it, and is killed", async () => {
    const { call } = setUp({ adapters: [fakeAdapter("hang")], handshakeTimeoutMs: 1_000 });
    const started = Date.now();
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.isError).toBe(true);
    expect(launch.code).toBe("unavailable");
    expect(launch.text).toContain(
      "failed while launching `program.fake`: The debug adapter did not answer `initialize` within 1000 ms.",
    );
    expect(launch.text).not.toContain("Fix the program");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await fakeAdaptersRunning()).toEqual([]);
  });

  it("an adapter that hangs after initialize is unavailable, naming the request and its budget, and is killed", async () => {
    const { call } = setUp({ adapters: [fakeAdapter("hang-after-initialize")], handshakeTimeoutMs: 1_000 });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.code).toBe("unavailable");
    expect(launch.text).toContain("The debug adapter did not answer `launch` within 1000 ms.");
    expect(await fakeAdaptersRunning()).toEqual([]);
  });

  it("a SIGKILLed adapter takes its paused debuggee (in a session of its own) with it", async () => {
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("orphan")] });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.text, launch.text).toContain("Stopped (breakpoint)");
    const session = supervisor.session("conversation-1");
    const pids = session.knownPids();
    expect(pids.length).toBe(2);
    expect(await stillRunning(pids)).toEqual(pids);
    process.kill(session.adapterPid!, "SIGKILL");
    for (let waited = 0; (await stillRunning(pids)).length > 0 && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stillRunning(pids)).toEqual([]);
    const status = await call({ op: "status" });
    expect(status.text).toContain("crashed");
    expect(status.text).toContain("ended unexpectedly");
    const next = await call({ op: "continue" });
    expect(next.isError).toBe(true);
  });

  it("dispose (the run closed mid-session) leaves no adapter or debuggee", async () => {
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("orphan")] });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.text, launch.text).toContain("Stopped (breakpoint)");
    const pids = supervisor.session("conversation-1").knownPids();
    await supervisor.dispose();
    expect(await stillRunning(pids)).toEqual([]);
    const again = await call({ op: "launch", program: "program.fake" });
    expect(again.text).toContain("disposed");
  });

  it("dispose SIGKILLs the adapter and the debuggee before it awaits anything (a host may exit right after asking)", async () => {
    // An adapter that never answers `disconnect`, as one on a loaded machine may not in time.
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("orphan-deaf")] });
    const launch = await call({ op: "launch", program: "program.fake" });
    expect(launch.text, launch.text).toContain("Stopped (breakpoint)");
    const pids = supervisor.session("conversation-1").knownPids();
    expect(await stillRunning(pids)).toEqual(pids);
    const disposing = supervisor.dispose();
    // The thread blocked, so none of dispose's awaited steps can run: only what it did at once counts,
    // as for a CLI that exits when its dispose grace is over.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect(pids.filter((pid) => runningNow(pid))).toEqual([]);
    await disposing;
    expect(await stillRunning(pids)).toEqual([]);
  });
});

describe("a dispose during the launch", () => {
  it("kills an adapter still in its handshake at once, and the launch says the run ended", async () => {
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("hang")], handshakeTimeoutMs: 60_000 });
    const launching = call({ op: "launch", program: "program.fake" });
    let adapters: number[] = [];
    for (let waited = 0; adapters.length === 0 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      adapters = (await listDescendants(process.pid))
        .map((row) => row.pid)
        .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("fake-adapter.mjs"));
    }
    expect(adapters).toHaveLength(1);
    // The handshake waits on an adapter that never answers; give the session time to exist.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const disposing = supervisor.dispose();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect(adapters.filter((pid) => runningNow(pid))).toEqual([]);
    await disposing;
    const launch = await launching;
    expect(launch.isError).toBe(true);
    expect(launch.text).toContain("disposed (its run ended) during the launch");
  });
});

describe("dart", () => {
  it("is unavailable here, and `adapters` says which marker and where dart was looked for", async () => {
    const { call } = setUp({ env: { PATH: "/nonexistent-bin" } }, "dart-app");
    const adapters = await call({ op: "adapters" });
    expect(adapters.text).toContain(
      "dart: unavailable — pubspec.yaml found in `.`; no dart (the Dart SDK) (looked in /nonexistent-bin).",
    );
    expect(adapters.text).toMatch(/debugpy: unavailable — no pyproject\.toml, setup\.py, requirements\.txt in `\.`/);
  });

  it("drives an adapter that behaves as the Dart SDK's does (launch answered after configurationDone)", async () => {
    const bin = mkdtempSync(join(tmpdir(), "runbound-fake-dart-"));
    writeFileSync(join(bin, "dart"), `#!/bin/sh\nexec "${process.execPath}" "${fakeAdapterScript}" "$@"\n`);
    chmodSync(join(bin, "dart"), 0o755);
    const { call } = setUp({ env: { ...process.env, PATH: bin }, adapters: ADAPTERS }, "dart-app");
    await call({ op: "breakpoints", file: "main.dart", lines: [3] });
    const launch = await call({ op: "launch", program: "main.dart" });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.text).toContain("with dart");
    expect(launch.text).toContain("line 3: verified");
    expect(launch.text).toContain("Stopped (breakpoint) in thread 1 at main main.dart:3");
    expect(launch.text).toContain("print(greeting);");
    expect((await call({ op: "terminate" })).text).toContain("Terminated");
  });
});

describe("the session's time limit", () => {
  it("expires by the clock: the processes are gone and later calls say the session expired", async () => {
    let now = 1_000_000;
    const { call, supervisor } = setUp({ adapters: [fakeAdapter("orphan")], now: () => now, ttlMs: 30 * 60_000 });
    await call({ op: "launch", program: "program.fake" });
    const pids = supervisor.session("conversation-1").knownPids();
    now += 30 * 60_000 - 1;
    expect((await call({ op: "threads" })).text).toContain("1: main");
    now += 1;
    const after = await call({ op: "threads" });
    expect(after.isError).toBe(true);
    expect(after.text).toContain("expired after its time limit of 1800 s");
    for (let waited = 0; (await stillRunning(pids)).length > 0 && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await stillRunning(pids)).toEqual([]);
    expect((await call({ op: "status" })).text).toContain("expired");
    expect((await call({ op: "terminate" })).text).toContain("expired");
    const relaunch = await call({ op: "launch", program: "program.fake" });
    expect(relaunch.text).toContain("Stopped (breakpoint)");
  });
});
