import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { isRunning } from "./__fixtures__/process-table.js";
import { binPath } from "./__fixtures__/run-cli.js";

const fixtures = new URL("./__fixtures__/", import.meta.url).pathname;
const structuredPlugin = join(fixtures, "structured-plugin.mjs");
// The official MCP Inspector's command-line mode, from this package's devDependencies.
const inspectorCli = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")),
  "cli/build/cli.js",
);

/** Run the MCP Inspector CLI against `runbound mcp` as a child process; its stdout is the JSON answer. */
async function inspect(workdir: string, ...methodArgs: string[]): Promise<Record<string, unknown>> {
  const args = [
    inspectorCli,
    "--cli",
    process.execPath,
    binPath,
    "mcp",
    "--plugin",
    structuredPlugin,
    "--workdir",
    workdir,
    ...methodArgs,
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

type ListedTool = { name: string; title?: string; outputSchema?: unknown; annotations?: Record<string, unknown> };

/** What tools/list must say of the official tools and of the fixture plugin's (titles aside, which a tool may declare). */
function expectHonestAnnotations(tools: readonly ListedTool[]): void {
  const annotations = Object.fromEntries(
    tools.map(({ name, annotations: { title: _title, ...hints } = {} }) => [name, hints]),
  );
  const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  const destructive = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
  expect(annotations).toMatchObject({
    read: readOnly,
    write: destructive,
    edit: destructive,
    apply_patch: destructive,
    ast_grep: readOnly,
    // It stages a change and writes nothing; `resolve` writes.
    ast_edit: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    resolve: destructive,
    lsp: readOnly,
    lsp_rename: destructive,
    count_lines: { ...readOnly, idempotentHint: true },
    start_nothing: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  });
  expect(tools.filter((tool) => tool.annotations?.["idempotentHint"] !== undefined).map((tool) => tool.name)).toEqual([
    "count_lines",
  ]);
  for (const tool of tools) expect(tool.title, tool.name).toEqual(expect.any(String));
  expect(tools.find((tool) => tool.name === "count_lines")).toMatchObject({
    title: "Count lines",
    annotations: { title: "Count lines" },
  });
  expect(tools.find((tool) => tool.name === "count_lines")!.outputSchema).toStrictEqual({
    type: "object",
    properties: {
      lines: { type: "number", description: "How many lines." },
      longest: { type: "number", description: "Characters in the longest line." },
    },
    required: ["lines", "longest"],
  });
  // Every official tool whose answer has structure publishes it (ask_user and vibe_* are not served in these runs).
  expect(tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name)).toEqual([
    "ast_grep",
    "ast_edit",
    "resolve",
    "lsp",
    "lsp_rename",
    "eval",
    "debug",
    "count_lines",
    "miscount",
  ]);
  expect(tools.find((tool) => tool.name === "ast_grep")!.outputSchema).toMatchObject({
    type: "object",
    required: expect.arrayContaining(["total", "matches"]),
  });
  expect(tools.find((tool) => tool.name === "lsp")!.outputSchema).toMatchObject({ type: "object", required: ["op"] });
}

describe("runbound mcp", () => {
  it("serves the run to the official MCP client over a real stdio child process", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-")));
    await writeFile(join(project, "notes.txt"), "first\nsecond\n");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--workdir", project],
      stderr: "pipe",
    });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid!;

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["read", "write", "edit", "apply_patch"]));
    expect(tools.find((tool) => tool.name === "read")!.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      additionalProperties: false,
    });

    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(read).toEqual({ content: [{ type: "text", text: "1\tfirst\n2\tsecond" }], isError: false });

    const bad = await client.callTool({ name: "read", arguments: { path: 7 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("Field `path` must be string, but got 7.");

    await client.close();
    // The run ends with the connection: the server process exits and leaves nothing behind.
    for (let waited = 0; isRunning(pid) && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isRunning(pid)).toBe(false);
  });

  it("asks the client's user through elicitation for calls --ask names: allow once, always for this tool, deny", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-ask-")));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--ask", "write", "--workdir", project],
      stderr: "pipe",
    });
    const client = new Client(
      { name: "runbound-test", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    const questions: string[] = [];
    // 1 = allow once, then decline = deny, then 2 = always allow `write` for the rest of the run.
    const answers = [
      { action: "accept", content: { choice: "1" } },
      { action: "decline" },
      { action: "accept", content: { choice: "2" } },
    ];
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
    await expect(readFile(join(project, "no.txt"), "utf8")).rejects.toThrow();
    for (const name of ["always-1.txt", "always-2.txt"]) {
      expect((await client.callTool({ name: "write", arguments: { path: name, content: "a" } })).isError).toBe(false);
    }
    expect(questions[0]).toContain("May `write` (write) run");
    // The second call of `write` after "always" was not asked.
    expect(questions).toHaveLength(3);
    await client.close();
  });

  it("offers ask_user only to a client that declares elicitation, and maps its answers", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-ask-user-")));
    const withoutElicitation = new Client({ name: "runbound-test", version: "1.0.0" });
    await withoutElicitation.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [binPath, "mcp", "--workdir", project],
        stderr: "pipe",
      }),
    );
    expect((await withoutElicitation.listTools()).tools.map((tool) => tool.name)).not.toContain("ask_user");
    await withoutElicitation.close();

    const client = new Client(
      { name: "runbound-test", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    const answers = [{ action: "accept", content: { choice: "2" } }, { action: "decline" }];
    client.setRequestHandler(ElicitRequestSchema, async () => answers.shift()!);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [binPath, "mcp", "--workdir", project],
        stderr: "pipe",
      }),
    );
    // The port is attached once the client has initialized; the tool list then includes ask_user.
    let names: string[] = [];
    for (let waited = 0; !names.includes("ask_user") && waited < 10_000; waited += 100) {
      names = (await client.listTools()).tools.map((tool) => tool.name);
      if (!names.includes("ask_user")) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(names).toContain("ask_user");
    const question = {
      question: "Which database should the tests use?",
      options: [{ label: "sqlite" }, { label: "postgres" }],
      allow_free_text: false,
      multi_select: false,
    };
    const answered = await client.callTool({ name: "ask_user", arguments: question });
    expect(answered.isError).toBe(false);
    expect(JSON.stringify(answered.content)).toContain("postgres");
    // The structured answer reaches the client, checked against the schema it published (the SDK client validates it).
    expect(answered.structuredContent).toEqual({ status: "answered", choices: [{ number: 2, label: "postgres" }] });
    expect((await client.listTools()).tools.find((tool) => tool.name === "ask_user")!.outputSchema).toMatchObject({
      type: "object",
      required: ["status"],
    });
    const skipped = await client.callTool({
      name: "ask_user",
      arguments: { ...question, question: "Should the tests also run on CI?" },
    });
    expect(skipped.isError).toBe(false);
    expect(JSON.stringify(skipped.content)).toMatch(/skipped/i);
    expect(skipped.structuredContent).toMatchObject({ status: "skipped" });
    await client.close();
  });

  it("keeps a plugin's console.log off the JSON-RPC stream, on stderr", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-log-")));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--plugin", join(fixtures, "logging-plugin.mjs"), "--workdir", project],
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    const clientErrors: string[] = [];
    client.onerror = (error) => clientErrors.push(error.message);
    await client.connect(transport);
    expect(await client.callTool({ name: "chatty", arguments: {} })).toEqual({
      content: [{ type: "text", text: "done" }],
      isError: false,
    });
    await client.close();
    expect(clientErrors).toEqual([]);
    expect(stderr).toContain("debug output from chatty");
    expect(stderr).toContain("info output from chatty");
    expect(stderr).toContain("loading chatty");
  });

  it("serves only read tools to a plan caller", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-plan-")));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--caller", "plan", "--workdir", project],
      stderr: "pipe",
    });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain("write");
    await client.close();
  });

  it("lists honest annotations and output schemas, and sends structuredContent the SDK client validates", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-structured-")));
    await writeFile(join(project, "app.ts"), "dispose(a);\nconst b = 1;\n");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--plugin", structuredPlugin, "--workdir", project],
      stderr: "pipe",
    });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    // Listing first is what makes the SDK client validate each result against the tool's outputSchema.
    expectHonestAnnotations((await client.listTools()).tools as ListedTool[]);

    expect(await client.callTool({ name: "count_lines", arguments: { text: "one\ntwo\nthree" } })).toStrictEqual({
      content: [{ type: "text", text: "3 lines, the longest has 5 characters." }],
      structuredContent: { lines: 3, longest: 5 },
      isError: false,
    });
    // A result that breaks its own schema arrives as the tool's bug, not as a result the client's validation refuses.
    const broken = await client.callTool({ name: "miscount", arguments: { text: "one" } });
    expect(broken).not.toHaveProperty("structuredContent");
    expect(broken.isError).toBe(true);
    expect(broken.content).toStrictEqual([
      {
        type: "text",
        text: "Error (internal): Tool `miscount` answered a `structured` result that does not match its output schema: field `structured.lines` must be number, but got \"1\". This is a bug in the tool: report it to its plugin's authors. The tool's own answer follows.",
      },
      { type: "text", text: "1 lines." },
    ]);

    // Official tools: the SDK client validates each structuredContent against the outputSchema listed above.
    const search = await client.callTool({ name: "ast_grep", arguments: { pattern: "dispose($X)" } });
    expect(search.isError).toBe(false);
    expect(search.structuredContent).toMatchObject({
      total: 1,
      files: 1,
      matches: [{ path: "app.ts", line: 1, column: 1, text: "dispose(a)" }],
    });
    const status = await client.callTool({ name: "lsp", arguments: { op: "status" } });
    expect(status.isError).toBe(false);
    expect(status.structuredContent).toMatchObject({ op: "status", entries: [] });
    const cell = await client.callTool({
      name: "eval",
      arguments: { code: "6 * 7", language: "javascript", description: "multiply two numbers in javascript" },
    });
    expect(cell.isError).toBe(false);
    expect(cell.structuredContent).toMatchObject({ language: "javascript", status: "ok", state: "kept" });
    await client.close();
  });

  it("answers the MCP Inspector CLI's tools/list and tools/call the same way", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-mcp-inspector-")));
    const listed = await inspect(project, "--method", "tools/list");
    expectHonestAnnotations(listed["tools"] as ListedTool[]);
    expect(
      await inspect(project, "--method", "tools/call", "--tool-name", "count_lines", "--tool-arg", "text=a\nbc"),
    ).toStrictEqual({
      content: [{ type: "text", text: "2 lines, the longest has 2 characters." }],
      structuredContent: { lines: 2, longest: 2 },
      isError: false,
    });
  });
});
