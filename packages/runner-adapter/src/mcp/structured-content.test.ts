import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { definePlugin, defineTool, textResult, ToolError, type ToolOutput } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createRun } from "../create-run.js";
import { serveRunOverMcp } from "./serve-run-over-mcp.js";

const countOutput = v.object({ total: v.number(), files: v.array(v.string()), stamp: v.optional(v.string()) });

/** A tool that answers whatever `answer` it is given, as a model would see through MCP. */
function answering(name: string, answer: () => ToolOutput, output?: v.GenericSchema) {
  return defineTool({
    name,
    tier: "read",
    description: "Answers a fixed result.",
    input: v.strictObject({}),
    requires: [],
    parallelSafe: true,
    ...(output === undefined ? {} : { output }),
    run: async () => answer(),
  });
}

async function connectTo(...tools: ReturnType<typeof answering>[]) {
  const run = createRun({ plugins: [definePlugin({ name: "answers", version: "1.0.0", tools })] });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  serveRunOverMcp(serverTransport, run);
  const client = new Client({ name: "client", version: "1.0.0" });
  await client.connect(clientTransport);
  // The SDK client validates structuredContent only against output schemas it has listed.
  const { tools: listed } = await client.listTools();
  return { client, listed };
}

describe("structured results over MCP", () => {
  it("sends a declared schema's structured result as structuredContent, the text staying in content", async () => {
    const { client, listed } = await connectTo(
      answering("count", () => textResult("2 files", { total: 2, files: ["a.ts", "b.ts"] }), countOutput),
    );
    expect(listed[0]!.outputSchema).toStrictEqual({
      type: "object",
      properties: {
        total: { type: "number" },
        files: { type: "array", items: { type: "string" } },
        stamp: { type: "string" },
      },
      required: ["total", "files"],
    });
    expect(await client.callTool({ name: "count", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: "2 files" }],
      isError: false,
      structuredContent: { total: 2, files: ["a.ts", "b.ts"] },
    });
    await client.close();
  });

  it("publishes a variant as anyOf, as the input schemas are, so a value two options accept is not refused", async () => {
    const output = v.object({
      hit: v.variant("kind", [v.object({ kind: v.literal("file"), path: v.string() }), v.object({ kind: v.string() })]),
    });
    const { client, listed } = await connectTo(
      answering("find", () => textResult("a.ts", { hit: { kind: "file", path: "a.ts" } }), output),
    );
    expect(JSON.stringify(listed[0]!.outputSchema)).toContain('"anyOf"');
    expect(JSON.stringify(listed[0]!.outputSchema)).not.toContain('"oneOf"');
    // Both options accept this value: a oneOf schema would make the client refuse it.
    expect((await client.callTool({ name: "find", arguments: {} })).structuredContent).toStrictEqual({
      hit: { kind: "file", path: "a.ts" },
    });
    await client.close();
  });

  it("checks and sends the JSON form of the structured result, as the client receives it", async () => {
    const stamp = new Date(Date.UTC(2026, 0, 2));
    const { client } = await connectTo(
      answering(
        "count",
        () => textResult("1 file", { total: 1, files: ["a.ts"], stamp, note: undefined } as never),
        countOutput,
      ),
    );
    expect((await client.callTool({ name: "count", arguments: {} })).structuredContent).toStrictEqual({
      total: 1,
      files: ["a.ts"],
      stamp: "2026-01-02T00:00:00.000Z",
    });
    await client.close();
  });

  it("leaves structuredContent out for a tool without an output schema, and for every error result", async () => {
    const { client, listed } = await connectTo(
      // Listed first, so a lookup that picked the wrong tool would check free_form against this schema.
      answering("count", () => textResult("2 files", { total: 2, files: [] }), countOutput),
      answering("free_form", () => textResult("free", { anything: true })),
      answering(
        "refuses",
        () => {
          throw new ToolError({ code: "not_found", message: "Nothing called `x`." });
        },
        countOutput,
      ),
    );
    expect(listed.find((tool) => tool.name === "free_form")).not.toHaveProperty("outputSchema");
    expect(await client.callTool({ name: "free_form", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: "free" }],
      isError: false,
    });
    expect(await client.callTool({ name: "refuses", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: "Error (not_found): Nothing called `x`." }],
      isError: true,
    });
    await client.close();
  });

  const mismatch = "answered a `structured` result that does not match its output schema: ";
  it.each([
    [
      "a wrong type",
      { total: "2", files: ["a.ts"] },
      countOutput,
      `${mismatch}field \`structured.total\` must be number, but got "2"`,
    ],
    ["a missing field", { total: 2 }, countOutput, `${mismatch}field \`structured.files\` is missing`],
    [
      "a nested field",
      { total: 2, files: ["a.ts", 7] },
      countOutput,
      `${mismatch}field \`structured.files.1\` must be string, but got 7`,
    ],
    [
      "a field the strict schema lacks",
      { total: 2, extra: 1 },
      v.strictObject({ total: v.number() }),
      `${mismatch}field \`structured.extra\` is not in the schema`,
    ],
    [
      "a field that must never be there",
      { total: 2, gone: 1 },
      v.object({ total: v.number(), gone: v.optional(v.never()) }),
      `${mismatch}field \`structured.gone\` must be never, but got 1`,
    ],
    [
      "a nested strict object that is none",
      { total: 2, inner: 5 },
      v.object({ total: v.number(), inner: v.strictObject({}) }),
      `${mismatch}field \`structured.inner\` must be Object, but got 5`,
    ],
    ["an array", ["a.ts"], v.object({}), "answered a `structured` result that is an array, not a JSON object"],
    ["null", null, v.object({}), "answered a `structured` result that is null, not a JSON object"],
    ["a string", "2 files", v.object({}), "answered a `structured` result that is a string, not a JSON object"],
    [
      "a failed check",
      { total: -1 },
      v.object({ total: v.pipe(v.number(), v.minValue(0)) }),
      `${mismatch}field \`structured.total\`: Invalid value: Expected >=0 but received -1`,
    ],
    ["no structured result", undefined, countOutput, "declares an output schema but answered no `structured` result"],
    [
      "a value JSON cannot carry",
      { total: 10n },
      countOutput,
      "answered a `structured` result that cannot be sent as JSON (Do not know how to serialize a BigInt)",
    ],
  ])(
    "answers a result with %s as an internal error naming the problem, then the tool's text",
    async (_case, structured, output, problem) => {
      const { client } = await connectTo(
        answering("count", () => textResult("the answer", structured as never), output),
      );
      expect(await client.callTool({ name: "count", arguments: {} })).toStrictEqual({
        content: [
          {
            type: "text",
            text: `Error (internal): Tool \`count\` ${problem}. This is a bug in the tool: report it to its plugin's authors. The tool's own answer follows.`,
          },
          { type: "text", text: "the answer" },
        ],
        isError: true,
      });
      await client.close();
    },
  );

  it("names at most three fields and counts the rest, each received value cut to 120 characters", async () => {
    const output = v.object({ a: v.number(), b: v.number(), c: v.number(), d: v.number(), e: v.number() });
    const { client } = await connectTo(
      answering("many", () => textResult("x", { a: "x".repeat(500), b: "y".repeat(118) }), output),
    );
    const text = ((await client.callTool({ name: "many", arguments: {} })).content as { text: string }[])[0]!.text;
    // 118 characters and their quotes make 120: shown whole.
    expect(text).toContain(
      `field \`structured.a\` must be number, but got "${"x".repeat(119)}…; field \`structured.b\` must be number, but got "${"y".repeat(118)}"; field \`structured.c\` is missing (and 2 more).`,
    );
    await client.close();
  });

  it("refuses to serve a tool whose output schema JSON Schema cannot express", async () => {
    const run = createRun({
      plugins: [
        definePlugin({
          name: "dated",
          version: "1.0.0",
          tools: [answering("dated", () => "x", v.object({ when: v.date() }))],
        }),
      ],
    });
    const [, serverTransport] = InMemoryTransport.createLinkedPair();
    expect(() => serveRunOverMcp(serverTransport, run)).toThrow(
      expect.objectContaining({
        code: "invalid_plugin",
        message: expect.stringMatching(
          /^The output schema of `dated` cannot be exported as JSON Schema: The "date" schema cannot be converted to JSON Schema\./,
        ),
      }),
    );
  });
});
