import { mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { isRunning } from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

const fixtures = new URL("./__fixtures__/", import.meta.url).pathname;

describe("runbound mcp", () => {
  it("serves the run to the official MCP client over a real stdio child process", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-")));
    await writeFile(join(project, "notes.txt"), "first\nsecond\n");
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, "mcp", "--workdir", project], stderr: "pipe" });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid!;

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["read", "write", "edit", "apply_patch"]));
    expect(tools.find((tool) => tool.name === "read")!.inputSchema).toMatchObject({ type: "object", required: ["path"], additionalProperties: false });

    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(read).toEqual({ content: [{ type: "text", text: "1\tfirst\n2\tsecond" }], isError: false });

    const bad = await client.callTool({ name: "read", arguments: { path: 7 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("Field `path` must be string, but got 7.");

    await client.close();
    // The run ends with the connection: the server process exits and leaves nothing behind.
    for (let waited = 0; isRunning(pid) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isRunning(pid)).toBe(false);
  });

  it("asks the client's user through elicitation for calls --ask names", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-ask-")));
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, "mcp", "--ask", "write", "--workdir", project], stderr: "pipe" });
    const client = new Client({ name: "runbound-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const questions: string[] = [];
    const answers = [{ action: "accept", content: { approve: true } }, { action: "decline" }];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return answers.shift()!;
    });
    await client.connect(transport);
    const allowed = await client.callTool({ name: "write", arguments: { path: "yes.txt", content: "y" } });
    expect(allowed.isError).toBe(false);
    expect(await readFile(join(project, "yes.txt"), "utf8")).toBe("y");
    const declined = await client.callTool({ name: "write", arguments: { path: "no.txt", content: "n" } });
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toContain("was denied");
    expect(questions[0]).toContain("Allow `write` (write)");
    expect(questions).toHaveLength(2);
    await client.close();
  });

  it("keeps a plugin's console.log off the JSON-RPC stream, on stderr", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-log-")));
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, "mcp", "--plugin", join(fixtures, "logging-plugin.mjs"), "--workdir", project], stderr: "pipe" });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    const clientErrors: string[] = [];
    client.onerror = (error) => clientErrors.push(error.message);
    await client.connect(transport);
    expect(await client.callTool({ name: "chatty", arguments: {} })).toEqual({ content: [{ type: "text", text: "done" }], isError: false });
    await client.close();
    expect(clientErrors).toEqual([]);
    expect(stderr).toContain("debug output from chatty");
    expect(stderr).toContain("info output from chatty");
    expect(stderr).toContain("loading chatty");
  });

  it("serves only read tools to a plan caller", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-plan-")));
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, "mcp", "--caller", "plan", "--workdir", project], stderr: "pipe" });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain("write");
    await client.close();
  });
});
