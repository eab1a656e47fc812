import { closeSync, openSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectCallerApprovals } from "./caller-approvals.js";
import { createProcessRoster, type ProcessRosterSettings } from "./process-roster.js";
import type { WorkerCallApproval } from "./serve-caller-approvals.js";
import { liveGroupMembers, untilWorker, workerScript } from "./test-support/worker-scripts.js";
import type { VibeRosterInstance } from "./vibe-roster.js";

const longWait = () => ({ timeoutMs: 30_000, signal: new AbortController().signal });

let workdir: string;
const rosters: VibeRosterInstance[] = [];

function roster(settings: Omit<ProcessRosterSettings, "cwd" | "fast">): VibeRosterInstance {
  const created = createProcessRoster({
    cwd: workdir,
    stopGraceMs: 300,
    fast: workerScript("ask-caller"),
    ...settings,
  });
  rosters.push(created);
  return created;
}

async function answersOf(
  workers: VibeRosterInstance,
  brief: unknown,
  ceiling: "read" | "write" | "exec" = "exec",
): Promise<unknown> {
  workers.spawn({ brief: JSON.stringify(brief), label: "asker", tier: "fast", ceiling });
  const { snapshot } = await workers.wait("w1", longWait());
  expect(snapshot.status, snapshot.failure ?? "").toBe("completed");
  return JSON.parse(snapshot.output);
}

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), "tool-vibe-approvals-")));
});

afterEach(async () => {
  await Promise.all(rosters.splice(0).map((created) => created.dispose()));
  await rm(workdir, { recursive: true, force: true });
});

describe("the approval channel between a process worker and its caller", () => {
  it("carries a worker's question to the caller's approver, naming the worker and its ceiling as the roster knows them, and the answer back", async () => {
    const asked: WorkerCallApproval[] = [];
    const workers = roster({
      askTiers: ["write"],
      approve: async (call) => {
        asked.push(call);
        if (call.tool !== "write") throw new Error("Calling `edit` was denied by the operator.");
      },
    });
    const answers = await answersOf(
      workers,
      {
        asks: [
          { tool: "write", input: { path: "a.txt" } },
          { tool: "edit", input: { path: "b.txt" } },
        ],
      },
      "write",
    );
    expect(answers).toEqual([
      { approved: true },
      { approved: false, message: "Calling `edit` was denied by the operator." },
    ]);
    expect(asked).toEqual([
      { workerId: "w1", ceiling: "write", tool: "write", input: { path: "a.txt" } },
      { workerId: "w1", ceiling: "write", tool: "edit", input: { path: "b.txt" } },
    ]);
  });

  it("denies a malformed question without asking the approver", async () => {
    const asked: unknown[] = [];
    const workers = roster({ askTiers: ["write"], approve: async (call) => void asked.push(call) });
    const answers = await answersOf(workers, {
      asks: [{ raw: { input: {} } }, { raw: { tool: "x".repeat(201) } }, { raw: { tool: 7 } }],
    });
    expect(answers).toEqual(
      Array(3).fill({
        approved: false,
        message: "The approval request names no tool (`tool` must be a tool name), so it was denied.",
      }),
    );
    expect(asked).toEqual([]);
  });

  it("gives no channel, and removes an inherited RUNBOUND_APPROVAL_FD, when the roster has no approver", async () => {
    const workers = roster({ askTiers: ["write"], env: { ...process.env, RUNBOUND_APPROVAL_FD: "3" } });
    expect(await answersOf(workers, { asks: [] })).toEqual({ channel: "none" });
  });

  it("withdraws a pending question when the worker is killed, and leaves nothing running", async () => {
    let pending = false;
    let withdrawn: unknown;
    const workers = roster({
      askTiers: ["write"],
      approve: (call, signal) => {
        if ((call.input as { path?: string } | null)?.path !== "late.txt") return Promise.resolve();
        pending = true;
        return new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject((withdrawn = signal.reason))),
        );
      },
    });
    workers.spawn({
      brief: JSON.stringify({ asks: [{ tool: "write", input: {} }], then: "hang" }),
      label: "hanger",
      tier: "fast",
      ceiling: "exec",
    });
    const running = await untilWorker(workers, "w1", (snapshot) => snapshot.output.includes("approved"));
    const { pid, answers } = JSON.parse(running.output.trim()) as { pid: number; answers: unknown };
    expect(answers).toEqual([{ approved: true }]);
    // The worker prints before it sends its second question: kill it only once that question is with the approver.
    await untilWorker(workers, "w1", () => pending);
    await workers.kill("w1");
    await untilWorker(workers, "w1", (snapshot) => snapshot.status === "killed");
    await untilWorker(workers, "w1", () => withdrawn !== undefined);
    expect(workers.list()[0]!.output).not.toContain("the hanging question was answered");
    expect(await liveGroupMembers(pid)).toEqual([]);
  });
});

describe("connectCallerApprovals", () => {
  it("is undefined without RUNBOUND_APPROVAL_FD", () => {
    expect(connectCallerApprovals({})).toBeUndefined();
  });

  it("refuses a value that names no usable channel, naming the value and the fix", () => {
    expect(() => connectCallerApprovals({ RUNBOUND_APPROVAL_FD: "three" })).toThrow(
      "The environment variable RUNBOUND_APPROVAL_FD is `three`: it must be a file descriptor number of 3 or more. It is set by the roster that starts this program as a worker; unset it when starting it yourself.",
    );
    expect(() => connectCallerApprovals({ RUNBOUND_APPROVAL_FD: "1" })).toThrow("of 3 or more");
    expect(() => connectCallerApprovals({ RUNBOUND_APPROVAL_FD: "987654" })).toThrow(
      "`987654`: no such file descriptor is open",
    );
    const file = openSync(join(workdir, "not-a-socket"), "w");
    try {
      expect(() => connectCallerApprovals({ RUNBOUND_APPROVAL_FD: String(file) })).toThrow(
        `\`${file}\`: that file descriptor is not a socket`,
      );
    } finally {
      closeSync(file);
    }
  });
});
