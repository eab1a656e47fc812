import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { binPath } from "./__fixtures__/run-cli.js";
import { runCli } from "./__fixtures__/run-cli.js";
import { runCliInTerminal } from "./__fixtures__/run-cli-in-terminal.js";

const plugin = join(fileURLToPath(new URL("./__fixtures__/", import.meta.url)), "progress-plugin.mjs");
let project: string | undefined;
afterEach(async () => {
  if (project !== undefined) await rm(project, { recursive: true, force: true });
  project = undefined;
});

describe("progress of a call from the shell", () => {
  it("`call` at a terminal shows each progress notice before the answer", async () => {
    project = await mkdtemp(join(tmpdir(), "runbound-progress-"));
    const { code, screen } = await runCliInTerminal(
      ["call", "count_to", '{"n":3}', "--plugin", plugin, "-C", project],
      [],
    );
    expect(code).toBe(0);
    expect(screen).toContain("runbound: count_to: counting (1/3)\n");
    expect(screen).toContain("runbound: count_to: counting (3/3)\n");
    expect(screen.indexOf("counting (3/3)")).toBeLessThan(screen.indexOf("counted to 3"));
  });

  it("`call` and `session` piped keep stderr for problems: no progress lines, the answer alone on stdout", async () => {
    project = await mkdtemp(join(tmpdir(), "runbound-progress-"));
    const called = await runCli(["call", "count_to", '{"n":3}', "--plugin", plugin, "-C", project]);
    expect(called).toMatchObject({ code: 0, stdout: "counted to 3\n", stderr: "" });
    const session = await runCli(["session", "--plugin", plugin, "-C", project], {
      stdin: '{"id":1,"tool":"count_to","input":{"n":2}}\n',
    });
    expect(session.code).toBe(0);
    expect(session.stderr).toBe("");
    const lines = session.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: "counted to 2" }] },
    });
  });
});

describe("a long call over MCP", () => {
  it("keeps a client whose timeout resets on progress waiting through 20 s of silence, and says what it waits for and for how long", async () => {
    project = await mkdtemp(join(tmpdir(), "runbound-heartbeat-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--plugin", plugin, "--workdir", project],
      stderr: "pipe",
    });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const notices: Array<{ at: number; message: string | undefined; progress: number }> = [];
      const started = Date.now();
      const onprogress = (progress: { progress: number; message?: string }) =>
        notices.push({ at: Date.now() - started, message: progress.message, progress: progress.progress });
      const result = await client.callTool({ name: "quiet_wait", arguments: { seconds: 20 } }, undefined, {
        timeout: 8_000,
        resetTimeoutOnProgress: true,
        onprogress,
      });
      expect(result.content).toEqual([{ type: "text", text: "waited 20 s" }]);
      expect(notices[0]!.message).toBe("Waiting for the slow step");
      expect(notices.length).toBeGreaterThanOrEqual(4);
      expect(notices.at(-1)!.message).toMatch(/^Waiting for the slow step \((1[5-9]|2\d) s so far\)$/);
      for (let index = 1; index < notices.length; index += 1) {
        expect(notices[index]!.progress).toBeGreaterThan(notices[index - 1]!.progress);
        expect(notices[index]!.at - notices[index - 1]!.at).toBeLessThan(7_000);
      }
      // The same silence without resetting on progress outlasts the client's patience: the heartbeat is what kept the call alive.
      await expect(
        client.callTool({ name: "quiet_wait", arguments: { seconds: 20 } }, undefined, {
          timeout: 8_000,
          onprogress: () => undefined,
        }),
      ).rejects.toThrow(/Request timed out/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
