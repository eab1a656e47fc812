import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { definePlugin, defineTool, resultErrorCode, resultText, type ToolResult } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { toAiSdkTools } from "./ai-sdk/to-ai-sdk-tools.js";
import { createRun, type Run } from "./create-run.js";
import { serveRunOverMcp } from "./mcp/serve-run-over-mcp.js";

// Issue 22 item 4: a lone surrogate in a breakpoint path reached debugpy and wedged the next launch.
// The refusal belongs to validation, so it holds for every tool and every path into a run.

const wellFormed = (text: string): boolean =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

function setUp(): { run: Run; ran: unknown[] } {
  const ran: unknown[] = [];
  const breakpoints = defineTool({
    name: "breakpoints",
    tier: "exec",
    description: "Records breakpoints.",
    input: v.strictObject({
      files: v.pipe(
        v.array(
          v.strictObject({
            path: v.string(),
            lines: v.array(v.number()),
            labels: v.optional(v.record(v.string(), v.string())),
          }),
        ),
        v.description("Files and lines."),
      ),
      options: v.optional(v.pipe(v.strictObject({ env: v.record(v.string(), v.string()) }), v.description("Options."))),
    }),
    requires: [],
    parallelSafe: false,
    run: async (input) => {
      ran.push(input);
      return "recorded";
    },
  });
  const relay = defineTool({
    name: "relay",
    tier: "read",
    description: "Calls another tool with what it is given.",
    input: v.strictObject({
      path: v.pipe(v.string(), v.description("Passed on.")),
      escape: v.pipe(v.boolean(), v.description("Break it in the bridge.")),
    }),
    requires: [],
    parallelSafe: true,
    // Builds the lone surrogate itself, after its own input was checked: the bridge must check again.
    run: async (input, context): Promise<ToolResult> =>
      context.callTool("breakpoints", {
        files: [{ path: input.escape ? `${input.path}\ud800` : input.path, lines: [1] }],
      }),
  });
  return {
    run: createRun({ plugins: [definePlugin({ name: "fixture", version: "1.0.0", tools: [breakpoints, relay] })] }),
    ran,
  };
}

describe("a lone surrogate anywhere in a call's input is invalid_input, before the tool runs", () => {
  it.each([
    [
      "a value in an array of objects",
      {
        files: [
          { path: "ok.py", lines: [1] },
          { path: "\ud800x", lines: [2] },
        ],
      },
      "Field `files.1.path`",
      "at position 0 of `\\ud800x`",
    ],
    [
      "a value in a record",
      { files: [{ path: "a.py", lines: [1], labels: { first: "ok", second: "x\udfff" } }] },
      "Field `files.0.labels.second`",
      "at position 1 of `x\\udfff`",
    ],
    [
      "a key of a record",
      { files: [{ path: "a.py", lines: [1], labels: { "k\udc00": "ok" } }] },
      "The key `k\\udc00` of `files.0.labels`",
      "at position 1,",
    ],
    [
      "a key nested two objects deep",
      { files: [], options: { env: { "\ud83d": "1" } } },
      "The key `\\ud83d` of `options.env`",
      "at position 0,",
    ],
    [
      "a top-level key the schema does not know",
      { files: [], "extra\ud800": true },
      "The key `extra\\ud800` of the input",
      "at position 5,",
    ],
  ])("%s", async (_what, input, where, position) => {
    const { run, ran } = setUp();
    const result = await run.call("breakpoints", input);
    expect(resultErrorCode(result)).toBe("invalid_input");
    const text = resultText(result);
    expect(text).toContain(`Invalid input for \`breakpoints\`: ${where} is not well-formed Unicode text`);
    expect(text).toContain(position);
    expect(text).toContain("Send the whole character");
    expect(wellFormed(text)).toBe(true);
    expect(ran).toEqual([]);
  });

  it("accepts surrogate pairs (an emoji) in values and keys", async () => {
    const { run, ran } = setUp();
    const result = await run.call("breakpoints", { files: [{ path: "😀.py", lines: [1], labels: { "😀": "😀" } }] });
    expect(resultText(result)).toBe("recorded");
    expect(ran).toHaveLength(1);
  });

  it("through ctx.callTool: a tool cannot pass one on to another", async () => {
    const { run, ran } = setUp();
    const result = await run.call("relay", { path: "a.py", escape: true });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toContain("Field `files.0.path` is not well-formed Unicode text");
    expect(ran).toEqual([]);
  });

  it("over MCP: tools/call answers an error result and the connection goes on", async () => {
    const { run, ran } = setUp();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    serveRunOverMcp(serverTransport, run);
    const client = new Client({ name: "client", version: "1.0.0" });
    await client.connect(clientTransport);
    // Over stdio the JSON text carries `"\ud800x"` as an escape, which JSON.parse turns back into the lone surrogate.
    const refused = await client.callTool({
      name: "breakpoints",
      arguments: JSON.parse('{"files":[{"path":"\\ud800x","lines":[1]}]}') as Record<string, unknown>,
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("Field `files.0.path` is not well-formed Unicode text");
    expect(
      await client.callTool({ name: "breakpoints", arguments: { files: [{ path: "a.py", lines: [1] }] } }),
    ).toMatchObject({ isError: false });
    expect(ran).toHaveLength(1);
    await client.close();
  });

  it("in the AI SDK tools: the input schema's own validation refuses it", async () => {
    const { run } = setUp();
    const tool = toAiSdkTools(run)["breakpoints"]!;
    const schema = tool.inputSchema as {
      validate?: (
        value: unknown,
      ) => { success: boolean; error?: Error } | PromiseLike<{ success: boolean; error?: Error }>;
    };
    const outcome = await schema.validate!({ files: [{ path: "a.py", lines: [1], labels: { "\udbff": "x" } }] });
    expect(outcome.success).toBe(false);
    expect(outcome.error?.message).toContain("The key `\\udbff` of `files.0.labels` is not well-formed Unicode text");
  });
});
