import { mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { descendantsOf, isRunning, millisecondsUntilExit } from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

const servers: number[] = [];

afterEach(() => {
  // A server that failed to exit must not outlive the test.
  for (const pid of servers.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
});

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("");
}

describe("runbound mcp and a message over the stdio limit (issue 22, item 3)", () => {
  it("answers an 11 MiB request with an error naming the limit, and the run goes on", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-oversized-")));
    await writeFile(join(project, "notes.txt"), "first\nsecond\n");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--workdir", project],
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid!;
    servers.push(pid);

    // State that must outlive the refused message: a kernel with a variable in it.
    const set = await client.callTool({
      name: "eval",
      arguments: { code: "globalThis.kept = 41", language: "javascript", description: "keep a value in the kernel" },
    });
    expect(set.isError, text(set)).toBe(false);
    const kernels = descendantsOf(pid);
    expect(kernels.length).toBeGreaterThan(0);

    const huge = "x".repeat(11 * 1024 * 1024);
    const refused = await client.callTool({ name: "write", arguments: { path: "huge.txt", content: huge } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toContain(
      "over this stdio connection's limit of 10 MiB (10,485,760 bytes) per message",
    );
    expect((refused as McpError).message).toContain("Send less in one message");
    expect((refused as McpError).data).toMatchObject({ maxMessageBytes: 10 * 1024 * 1024 });

    // The connection, the run and its kernel are all still there.
    expect(isRunning(pid)).toBe(true);
    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(text(read)).toBe("1\tfirst\n2\tsecond");
    const again = await client.callTool({
      name: "eval",
      arguments: { code: "kept + 1", language: "javascript", description: "read the kept value back again" },
    });
    expect(text(again)).toContain("42");
    expect(kernels.every(isRunning)).toBe(true);
    // The operator's log says what happened too (stderr arrives on its own pipe, maybe later).
    await vi.waitFor(() =>
      expect(stderr).toMatch(
        /runbound mcp: refused a message of 11,534,\d{3} bytes \(`tools\/call`, id \d+\), over the limit of 10,485,760 bytes per message; answered with an error; the run goes on\./,
      ),
    );

    await client.close();
    expect(await millisecondsUntilExit(pid, 10_000)).toBeDefined();
    expect(kernels.filter(isRunning)).toEqual([]);
  }, 60_000);
});
