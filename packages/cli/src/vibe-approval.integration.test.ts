import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listProcesses } from "@runbound/runtime-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { binPath, runCli } from "./__fixtures__/run-cli.js";
import { resultTextOf, runSession } from "./__fixtures__/run-session.js";

// Issue 22 item 1: vibe_spawn is a read tool, never asked about, so the approval policy of the run
// that spawns a worker must travel with the worker, or `--ask` is bypassed by asking a worker; what a
// worker needs approved is asked of its caller's operator, or denied where none is attached.
let project: string;

beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-vibe-approval-")));
});

afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

// These tests follow each worker by its pid in this machine's process table, which a sandboxed
// worker's PID namespace would hide: their callers run workers on the host (--sandbox off); the
// sandbox's own worker tests are in sandbox.integration.test.ts.
const onHost = ["--sandbox", "off"];

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
  delete environment["RUNBOUND_APPROVAL_FD"];
  return environment;
}

/** `runbound mcp` with these arguments and a client whose user answers permission cards from `answers`, recording the questions. */
async function mcpWithOperator(args: readonly string[], answers: Array<"1" | "decline">) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, "mcp", "--workdir", project, ...args],
    env: cleanEnvironment() as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client(
    { name: "runbound-test", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  const questions: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    questions.push(`${request.params.message}`);
    const answer = answers.shift();
    return answer === "1" ? { action: "accept", content: { choice: "1" } } : { action: "decline" };
  });
  await client.connect(transport);
  const call = async (name: string, input: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: input }, undefined, { timeout: 150_000 });
    return (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  };
  return { client, questions, call };
}

describe("the approval policy travels with a vibe worker", () => {
  it("keeps a runbound session worker of an --ask write,exec caller from writing, and says why", async () => {
    const target = join(project, "worker-wrote.txt");
    const brief = JSON.stringify({
      id: 1,
      tool: "write",
      input: { path: "worker-wrote.txt", content: "written by the worker\n" },
    });
    const responses = await runSession(
      project,
      [...onHost, "--ask", "write,exec", "--vibe", "--worker-fast", sessionWorker()],
      [
        { id: 1, tool: "write", input: { path: "caller-wrote.txt", content: "direct\n" } },
        { id: 2, tool: "vibe_spawn", input: { brief, label: "writer" } },
        { id: 3, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
      ],
      cleanEnvironment(),
    );
    // The direct write is denied, as before.
    expect(resultTextOf(responses[0]!)).toContain("needs approval");
    expect(existsSync(join(project, "caller-wrote.txt"))).toBe(false);
    // The worker ran (its session answered) but its write was denied in its own run.
    expect(existsSync(target)).toBe(false);
    const waited = resultTextOf(responses[2]!);
    expect(waited).toContain("completed");
    expect(waited).toContain("RUNBOUND_ASK=write,exec");
    // It asked its caller, whose run has no operator to ask.
    expect(waited).toContain(
      "the caller answered: Calling `write` needs approval, and no approver is connected to this run, so it was denied.",
    );
    await expectWorkersGone(1);
  });

  it("asks the caller's operator for a worker's write, naming the worker: allowed once it writes, declined it does not", async () => {
    const { client, questions, call } = await mcpWithOperator(
      [...onHost, "--ask", "write,exec", "--vibe", "--worker-fast", sessionWorker()],
      ["1", "decline"],
    );
    try {
      for (const [id, file] of [
        ["w1", "approved.txt"],
        ["w2", "declined.txt"],
      ] as const) {
        const brief = JSON.stringify({ id: 1, tool: "write", input: { path: file, content: `from ${id}\n` } });
        expect(await call("vibe_spawn", { brief, label: file })).toContain(id);
        expect(await call("vibe_wait", { worker_id: id, timeout_seconds: 120 })).toContain("completed");
      }
      expect(await readFile(join(project, "approved.txt"), "utf8")).toBe("from w1\n");
      expect(existsSync(join(project, "declined.txt"))).toBe(false);
      expect(questions).toHaveLength(2);
      expect(questions[0]).toContain("May `write` (write) run for worker w1?");
      expect(questions[0]).toContain("approved.txt");
      expect(questions[1]).toContain("for worker w2");
      const declined = await call("vibe_wait", { worker_id: "w2", timeout_seconds: 5 });
      expect(declined).toContain("the caller answered: Calling `write` was denied.");
    } finally {
      await client.close();
    }
    await expectWorkersGone(2);
  });

  it("carries a worker's worker's question up to the top caller's operator", async () => {
    const grandchildBrief = JSON.stringify({
      id: 1,
      tool: "write",
      input: { path: "grandchild-wrote.txt", content: "approved at the top\n" },
    });
    const childBrief = [
      JSON.stringify({ id: 1, tool: "vibe_spawn", input: { brief: grandchildBrief, label: "grandchild" } }),
      JSON.stringify({ id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } }),
    ].join("\n");
    const nestedWorker = `echo $$ >> "${join(project, "pids.txt")}"; exec "${process.execPath}" "${binPath}" session -C "${project}" --sandbox off --vibe --worker-fast '${sessionWorker().replaceAll("'", "'\\''")}'`;
    const { client, questions, call } = await mcpWithOperator(
      [...onHost, "--ask", "write", "--vibe", "--worker-fast", nestedWorker],
      ["1"],
    );
    try {
      await call("vibe_spawn", { brief: childBrief, label: "spawner" });
      expect(await call("vibe_wait", { worker_id: "w1", timeout_seconds: 120 })).toContain("completed");
    } finally {
      await client.close();
    }
    expect(await readFile(join(project, "grandchild-wrote.txt"), "utf8")).toBe("approved at the top\n");
    // Asked once, at the top, on behalf of the middle worker (which asked on its own worker's behalf).
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("May `write` (write) run for worker w1?");
    await expectWorkersGone(2);
  });

  it("passes the policy on to a worker's own workers, and lets an unasked caller's worker write", async () => {
    // A worker that is itself in vibe mode hands its caller's policy on: the grandchild cannot write either.
    const grandchildBrief = JSON.stringify({
      id: 1,
      tool: "write",
      input: { path: "grandchild-wrote.txt", content: "x\n" },
    });
    const childBrief = [
      JSON.stringify({ id: 1, tool: "vibe_spawn", input: { brief: grandchildBrief, label: "grandchild" } }),
      JSON.stringify({ id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } }),
    ].join("\n");
    const nestedWorker = `echo $$ >> "${join(project, "pids.txt")}"; exec "${process.execPath}" "${binPath}" session -C "${project}" --sandbox off --vibe --worker-fast '${sessionWorker().replaceAll("'", "'\\''")}'`;
    const nested = await runSession(
      project,
      [...onHost, "--ask", "write", "--vibe", "--worker-fast", nestedWorker],
      [
        { id: 1, tool: "vibe_spawn", input: { brief: childBrief, label: "spawner" } },
        { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
      ],
      cleanEnvironment(),
    );
    expect(existsSync(join(project, "grandchild-wrote.txt"))).toBe(false);
    expect(resultTextOf(nested[1]!)).toContain("no approver is connected to this run");
    await expectWorkersGone(2);

    // Without --ask nothing is asked, so the same kind of worker writes: the denial came from the policy.
    await rm(join(project, "pids.txt"));
    const brief = JSON.stringify({ id: 1, tool: "write", input: { path: "allowed.txt", content: "ok\n" } });
    const unasked = await runSession(
      project,
      [...onHost, "--vibe", "--worker-fast", sessionWorker()],
      [
        { id: 1, tool: "vibe_spawn", input: { brief, label: "writer" } },
        { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
      ],
      cleanEnvironment(),
    );
    expect(resultTextOf(unasked[1]!)).toContain("completed");
    expect(await readFile(join(project, "allowed.txt"), "utf8")).toBe("ok\n");
    await expectWorkersGone(1);
  });

  it("refuses an empty RUNBOUND_CEILING and a malformed RUNBOUND_ASK before opening a run", async () => {
    const emptyCeiling = await runCli(["tools", "-C", project], {
      env: { ...cleanEnvironment(), RUNBOUND_CEILING: "" },
    });
    expect(emptyCeiling.code).toBe(2);
    expect(emptyCeiling.stderr).toContain("The environment variable RUNBOUND_CEILING is empty");
    const badAsk = await runCli(["tools", "-C", project], {
      env: { ...cleanEnvironment(), RUNBOUND_ASK: "write,root" },
    });
    expect(badAsk.code).toBe(2);
    expect(badAsk.stderr).toContain("`write,root`");
  });
});
