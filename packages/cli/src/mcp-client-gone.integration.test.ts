import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { descendantsOf, isRunning, millisecondsUntilExit } from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

const fixtures = new URL("./__fixtures__/", import.meta.url).pathname;
const busyPlugin = join(fixtures, "busy-plugin.mjs");
// DESIGN §5 and issue 6 ask for an exit within 1 s; the assertion leaves room for a loaded 2-core machine.
const exitLimitMs = 3_000;

type ClientEvent =
  | { event: "server"; pid: number }
  | { event: "progress"; message?: string }
  | { event: "elicitation" }
  | { event: "result" }
  | { event: "response"; response: { id: unknown } };

interface ClientGone {
  /** From the client's SIGKILL until the server left the process table; undefined when it never did. */
  exitMs: number | undefined;
  /** The server's child processes at the kill that still run afterwards. */
  leftBehind: number[];
  /** The server's child processes at the kill. */
  children: number[];
  events: ClientEvent[];
}

const servers: number[] = [];

afterEach(() => {
  // A server that failed to exit must not outlive the test.
  for (const pid of servers.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
});

/** Start a client process that starts a server and calls it; once `ready` saw its event and `settleMs` passed, SIGKILL the client and time the server's exit. */
async function killClientMidCall(
  script: string,
  config: object,
  ready: (event: ClientEvent) => boolean,
  settleMs = 0,
): Promise<ClientGone> {
  const client = spawn(process.execPath, [join(fixtures, script), JSON.stringify(config)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  client.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const events: ClientEvent[] = [];
  let serverPid: number | undefined;
  await new Promise<void>((resolve, reject) => {
    client.once("exit", () => reject(new Error(`The client exited before the call was under way:\n${stderr}`)));
    void (async () => {
      for await (const line of createInterface({ input: client.stdout })) {
        const event = JSON.parse(line) as ClientEvent;
        events.push(event);
        if (event.event === "server") servers.push((serverPid = event.pid));
        if (ready(event)) return resolve();
      }
    })();
  });
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  expect(events.map((event) => event.event)).not.toContain("result");
  const children = descendantsOf(serverPid!);
  client.kill("SIGKILL");
  const exitMs = await millisecondsUntilExit(serverPid!, 20_000);
  // A child the server killed needs a moment to leave the table after its parent is gone.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { exitMs, leftBehind: children.filter(isRunning), children, events };
}

function mcpClient(project: string, tool: string, input: object, extraArgs: readonly string[] = []): object {
  return {
    command: process.execPath,
    args: [binPath, "mcp", "--plugin", busyPlugin, ...extraArgs, "--workdir", project],
    tool,
    input,
  };
}

const progressed = (event: ClientEvent): event is Extract<ClientEvent, { event: "progress" }> =>
  event.event === "progress";

function expectPromptExit(gone: ClientGone, what: string): void {
  console.info(
    `${what}: the server exited ${gone.exitMs?.toFixed(0) ?? "never (>20 s)"} ms after its client was killed`,
  );
  expect(gone.exitMs).toBeDefined();
  expect(gone.exitMs).toBeLessThan(exitLimitMs);
  expect(gone.leftBehind).toEqual([]);
}

describe("runbound mcp when its client is killed mid-call", () => {
  let project: string;

  beforeAll(async () => {
    project = await realpath(await mkdtemp(join(tmpdir(), "runbound-client-gone-")));
    // A tree big enough that one ast_grep over it runs for many seconds.
    const body = Array.from(
      { length: 200 },
      (_, index) =>
        `export function f${index}(a: number, b: string): number {\n  const x = foo(a, b, ${index});\n  if (x > ${index}) console.log(x, b);\n  return bar(x);\n}\n`,
    ).join("");
    for (let directory = 0; directory < 12; directory++) {
      await mkdir(join(project, "src", `d${directory}`), { recursive: true });
      for (let file = 0; file < 50; file++) await writeFile(join(project, "src", `d${directory}`, `m${file}.ts`), body);
    }
  });

  it("exits promptly while a tool spins the CPU in yielding chunks and ignores its signal", async () => {
    expectPromptExit(
      await killClientMidCall("mcp-client-until-killed.mjs", mcpClient(project, "spin", {}), progressed),
      "spin",
    );
  });

  it("exits promptly while a tool awaits a promise that never settles", async () => {
    expectPromptExit(
      await killClientMidCall("mcp-client-until-killed.mjs", mcpClient(project, "forever", {}), progressed),
      "forever",
    );
  });

  it("cancels a call that owns a child process, so the child is killed before the server exits", async () => {
    const gone = await killClientMidCall("mcp-client-until-killed.mjs", mcpClient(project, "child", {}), progressed);
    const child = Number(/child (\d+)/.exec(gone.events.find(progressed)?.message ?? "")?.[1]);
    expect(gone.children).toContain(child);
    expectPromptExit(gone, "child process");
  });

  it("exits promptly during a long ast_grep over a large tree", async () => {
    const gone = await killClientMidCall(
      "mcp-client-until-killed.mjs",
      mcpClient(project, "ast_grep", { pattern: "console.log($$$ARGS)" }),
      (event) => event.event === "server",
      1_500,
    );
    expectPromptExit(gone, "ast_grep");
  });

  it("exits promptly while an approval is pending with the client's user, and does not run the call", async () => {
    const gone = await killClientMidCall(
      "mcp-client-until-killed.mjs",
      mcpClient(project, "write", { path: "approved.txt", content: "x" }, ["--ask", "write"]),
      (event) => event.event === "elicitation",
    );
    expectPromptExit(gone, "pending approval");
    expect(await readdir(project)).not.toContain("approved.txt");
  });
});

describe("runbound session when its client is killed mid-call", () => {
  it("cancels the call and exits promptly", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-session-gone-")));
    const config = {
      command: process.execPath,
      args: [binPath, "session", "--plugin", busyPlugin, "--workdir", project],
      requests: [
        { id: 1, command: "tools" },
        { id: 2, tool: "spin", input: {} },
      ],
    };
    const answeredTools = (event: ClientEvent): boolean => event.event === "response" && event.response.id === 1;
    expectPromptExit(
      await killClientMidCall("session-client-until-killed.mjs", config, answeredTools, 300),
      "session spin",
    );
  });
});
