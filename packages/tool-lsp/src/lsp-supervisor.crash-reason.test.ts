import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import type { LspServerSpec } from "./server-spec.js";
import { fakeProject, living } from "./test-support/scripted-servers.js";

const script = join(
  dirname(fileURLToPath(import.meta.url)),
  "__fixtures__",
  "fake-servers",
  "exits-on-first-request.mjs",
);
const exitsOnFirstRequest = (...args: string[]): LspServerSpec => ({
  id: "fake",
  name: "a server that closes its input and exits with code 7 on its first request",
  languages: { ".fake": "fake" },
  rootMarkers: [["fake.json"]],
  server: { command: process.execPath, args: [script, ...args] },
  install: "nothing to install (a test fixture)",
});

function setUp(...args: string[]) {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [exitsOnFirstRequest(...args)], stopGraceMs: 300 });
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, project.workdir],
    ],
  });
  return {
    supervisor,
    run,
    hover: () => run.call("lsp", { op: "hover", file: project.file, line: 1, symbol: "answer" }),
  };
}

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

// Issue 22 item 5: the 2nd and 3rd crash read "sent output that is not JSON-RPC (write EPIPE)": the
// client's write to the dead server's stdin failed before the exit was seen, and won the race.
describe("a crashing server's reason is its exit, every time", () => {
  it("three crashes each name exit code 7 and the server's stderr, never a write to the dead pipe, and leave no process", async () => {
    const { run, hover } = setUp();
    const messages: string[] = [];
    for (let crash = 1; crash <= 3; crash += 1) {
      const result = await hover();
      expect(resultErrorCode(result)).toBe("unavailable");
      messages.push(resultText(result));
    }
    for (const [index, message] of messages.entries()) {
      expect(message, `crash ${index + 1}`).toContain("exited with code 7 while answering `textDocument/hover`");
      expect(message, `crash ${index + 1}`).toContain("fatal: cannot handle textDocument/hover");
      expect(message, `crash ${index + 1}`).not.toMatch(/EPIPE|not JSON-RPC|SIGTERM/);
    }
    expect(messages[2]).toContain("now broken");
    const status = resultText(await run.call("lsp", { op: "status" }));
    expect(status).toContain("broken");
    expect(status).toContain("exited with code 7");
    expect(status).not.toMatch(/EPIPE|not JSON-RPC/);
    // Each server wrote its pid to stderr, which the messages quote: three processes, all gone.
    const pids = messages.map((message) => Number(/\(pid (\d+)\)/.exec(message)?.[1]));
    expect(new Set(pids).size).toBe(3);
    for (const pid of pids) expect(await living(pid)).toEqual([]);
  });

  it("a request whose own write fails (EPIPE) is answered with the exit that follows, not the write error", async () => {
    const { hover } = setUp("closes-input-on-initialize");
    const message = resultText(await hover());
    expect(message).toContain("exited with code 7");
    expect(message).toContain("fatal: lost the client");
    expect(message).not.toMatch(/EPIPE|-32099|not JSON-RPC|SIGTERM/);
    const pid = Number(/\(pid (\d+)\)/.exec(message)?.[1]);
    expect(await living(pid)).toEqual([]);
  });

  it("a server that closes its input but keeps running is named for that, and stopped", async () => {
    const { hover } = setUp("keeps-running");
    const message = resultText(await hover());
    expect(message).toContain(
      "closed its input without exiting (write EPIPE) and was stopped while answering `textDocument/hover`",
    );
    expect(message).not.toContain("not JSON-RPC");
    const pid = Number(/\(pid (\d+)\)/.exec(message)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await expect.poll(async () => living(pid), { timeout: 5_000 }).toEqual([]);
  });
});
