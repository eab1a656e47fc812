import { execFileSync, spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cp, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { ADAPTERS } from "@runbound/tool-debug";
import { afterEach, describe, expect, it } from "vitest";
import {
  descendantsOf,
  isRunning,
  millisecondsUntilExit,
  processesWithEnvironment,
} from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

// tool-debug's C fixture (CMakeLists.txt marks it as lldb's): `app loop` prints, then sleeps forever.
const cFixture = new URL("../../tool-debug/src/__fixtures__/c-app/", import.meta.url).pathname;
// DESIGN §5: a run whose client is gone ends with everything it started. The debuggee of lldb runs in a
// session of its own (lldb-server --setsid), so only the supervisor's kill by pid can reach it; the
// limit leaves room for a loaded 2-core machine.
const goneLimitMs = 10_000;

const lldb = ADAPTERS.find((adapter) => adapter.id === "lldb")!;
const lldbFound =
  "command" in
  (await lldb.locate({
    root: "/",
    pathVariable: process.env["PATH"],
    debugpyPython: undefined,
    home: process.env["HOME"] ?? "/root",
  }));
if (!lldbFound && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
  throw new Error(
    "RUNBOUND_REQUIRE_REAL is set but `lldb-dap` or `lldb-vscode[-NN]` is not installed; run `.ci/run`, whose .ci/install.d/debug.sh installs it.",
  );
}

// The MCP client, as its own process so the test can SIGKILL it (see the fixture's header).
const clientScript = fileURLToPath(new URL("./__fixtures__/mcp-debug-client-until-killed.mjs", import.meta.url));

type ClientEvent =
  | { event: "server"; pid: number }
  | { event: "launched"; text: string; isError: boolean }
  | { event: "continuing" }
  | { event: "hung-up" };

const started: Array<ChildProcessByStdio<Writable, Readable, Readable>> = [];
const marks: string[] = [];

afterEach(() => {
  // Whatever a failed test left: the clients, and every process carrying a test's mark.
  for (const client of started.splice(0)) client.kill("SIGKILL");
  for (const mark of marks.splice(0))
    for (const pid of processesWithEnvironment("RUNBOUND_TEST_DEBUG_CLIENT_GONE", mark)) process.kill(pid, "SIGKILL");
});

async function builtProject(): Promise<string> {
  const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-debug-client-gone-")));
  await cp(cFixture, project, { recursive: true });
  execFileSync("gcc", ["-g", "-O0", "-o", join(project, "app"), join(project, "main.c")]);
  return project;
}

interface StoppedSession {
  client: ChildProcessByStdio<Writable, Readable, Readable>;
  serverPid: number;
  mark: string;
  launched: Extract<ClientEvent, { event: "launched" }>;
  /** `runbound mcp` and everything below it while the debuggee is stopped: the adapter, lldb-server, the program. */
  tree: number[];
  next(): Promise<ClientEvent>;
}

/** A client process whose `runbound mcp` has the C fixture launched under lldb and stopped at a breakpoint. */
async function stoppedSession(closeStdin: boolean, continueFirst = false): Promise<StoppedSession> {
  const project = await builtProject();
  const mark = randomUUID();
  marks.push(mark);
  const env = { ...process.env, RUNBOUND_TEST_DEBUG_CLIENT_GONE: mark };
  const config = {
    command: process.execPath,
    // The mark travels into the sandbox the debuggee runs in by default (its environment is an allowlist).
    args: [binPath, "mcp", "--workdir", project, "--pass-env", "RUNBOUND_TEST_DEBUG_CLIENT_GONE"],
    env,
    cwd: project,
    closeStdin,
    continueFirst,
  };
  const client = spawn(process.execPath, [clientScript, JSON.stringify(config)], { stdio: ["pipe", "pipe", "pipe"] });
  started.push(client);
  let stderr = "";
  client.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<ClientEvent> => {
    const line = await lines.next();
    if (line.done === true) throw new Error(`The client ended before its next report:\n${stderr}`);
    return JSON.parse(line.value as string) as ClientEvent;
  };
  const server = await next();
  if (server.event !== "server") throw new Error(`Expected the server's pid first, got ${JSON.stringify(server)}`);
  const launched = await next();
  if (launched.event !== "launched") throw new Error(`Expected the launch's answer, got ${JSON.stringify(launched)}`);
  return { client, serverPid: server.pid, mark, launched, tree: [server.pid, ...descendantsOf(server.pid)], next };
}

/** Milliseconds until none of `pids` and no process with the mark runs; undefined past the limit. */
async function millisecondsUntilAllGone(
  pids: readonly number[],
  mark: string,
  limitMs: number,
): Promise<number | undefined> {
  const start = performance.now();
  for (;;) {
    const alive = [...pids.filter(isRunning), ...processesWithEnvironment("RUNBOUND_TEST_DEBUG_CLIENT_GONE", mark)];
    if (alive.length === 0) return performance.now() - start;
    if (performance.now() - start > limitMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectStoppedUnderLldb(session: StoppedSession): void {
  expect(session.launched.isError, session.launched.text).toBe(false);
  expect(session.launched.text).toContain("with lldb");
  expect(session.launched.text).toContain("main.c:11");
  // runbound mcp, lldb-vscode, lldb-server and the program at least; the program carries the mark too.
  const marked = processesWithEnvironment("RUNBOUND_TEST_DEBUG_CLIENT_GONE", session.mark);
  const names = (pids: readonly number[]): string =>
    pids
      .map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 80)}`)
      .join("; ");
  expect(session.tree.length, names(session.tree)).toBeGreaterThanOrEqual(4);
  expect(marked.length, names(marked)).toBeGreaterThanOrEqual(4);
}

describe.runIf(lldbFound)("runbound mcp with a debug session stopped at a breakpoint when its client goes", () => {
  it("a client that closes the server's stdin: runbound mcp, the adapter and the program are all gone", async () => {
    const session = await stoppedSession(true);
    expectStoppedUnderLldb(session);
    session.client.stdin.write("hang up\n");
    expect(await session.next()).toEqual({ event: "hung-up" });
    const goneMs = await millisecondsUntilAllGone(session.tree, session.mark, goneLimitMs);
    console.info(`stdin closed: everything gone after ${goneMs?.toFixed(0) ?? `more than ${goneLimitMs}`} ms`);
    expect(goneMs).toBeDefined();
    expect(isRunning(session.client.pid!)).toBe(true);
  });

  it("a client that is SIGKILLed: runbound mcp, the adapter and the program are all gone", async () => {
    const session = await stoppedSession(false);
    expectStoppedUnderLldb(session);
    session.client.kill("SIGKILL");
    expect(await millisecondsUntilExit(session.client.pid!, 5_000)).toBeDefined();
    const goneMs = await millisecondsUntilAllGone(session.tree, session.mark, goneLimitMs);
    console.info(`client SIGKILLed: everything gone after ${goneMs?.toFixed(0) ?? `more than ${goneLimitMs}`} ms`);
    expect(goneMs).toBeDefined();
  });

  it("a client SIGKILLed while a `continue` waits for the running program to stop: all gone too", async () => {
    const session = await stoppedSession(false, true);
    expectStoppedUnderLldb(session);
    expect(await session.next()).toEqual({ event: "continuing" });
    session.client.kill("SIGKILL");
    const goneMs = await millisecondsUntilAllGone(session.tree, session.mark, goneLimitMs);
    console.info(
      `client SIGKILLed during continue: everything gone after ${goneMs?.toFixed(0) ?? `more than ${goneLimitMs}`} ms`,
    );
    expect(goneMs).toBeDefined();
  });
});
