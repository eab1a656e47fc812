import { runInNewContext } from "node:vm";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { echoTool } from "./__fixtures__/input-test-tools.js";
import { findPrototypeKey } from "./find-prototype-key.js";
import { createFakeRun } from "./testing/create-fake-run.js";

const read = echoTool(
  "read",
  v.strictObject({
    path: v.pipe(v.string(), v.description("File path.")),
    options: v.optional(v.pipe(v.strictObject({ limit: v.optional(v.number()) }), v.description("Options."))),
    meta: v.optional(v.pipe(v.unknown(), v.description("Free-form data."))),
    edits: v.optional(v.pipe(v.array(v.strictObject({ constructor: v.string() })), v.description("Edits."))),
  }),
);

async function answer(json: string): Promise<{ text: string; code: unknown }> {
  const result = await createFakeRun({ tools: [read] }).call("read", JSON.parse(json));
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  return { text, code: (result.structured?.["error"] as { code?: unknown } | undefined)?.code };
}

function refusal(field: string): string {
  return `Error (invalid_input): Invalid input for \`read\`: Field \`${field}\` is not accepted: the keys \`__proto__\`, \`constructor\`, \`prototype\` reach an object's prototype and never carry input. Put the fields in the object itself. Fix the input and call again.`;
}

describe("prototype keys in a call's input", () => {
  it.each([
    ['{"__proto__": {"path": "c.txt"}}', "__proto__"],
    ['{"path": "a.txt", "options": {"__proto__": {"limit": 1}}}', "options.__proto__"],
    ['{"path": "a.txt", "meta": {"deep": [{"__proto__": {"x": 1}}]}}', "meta.deep.0.__proto__"],
    ['{"path": "a.txt", "meta": {"constructor": {"prototype": {"polluted": true}}}}', "meta.constructor"],
    ['{"path": "a.txt", "meta": [{"prototype": 1}]}', "meta.0.prototype"],
    ['{"path": "a.txt", "constructor": {"prototype": {}}}', "constructor"],
    ['{"path": "a.txt", "edits": [{"constructor": "b", "prototype": "c"}]}', "edits.0.prototype"],
    [
      '{"path": "a.txt", "meta": {"a": null, "b": [1, "x", {"c": {"__proto__": {}}}], "d": {"prototype": 1}}}',
      "meta.b.2.c.__proto__",
    ],
  ])("refuses %s, naming the field", async (json, field) => {
    expect(await answer(json)).toEqual({ text: refusal(field), code: "invalid_input" });
  });

  it("refuses input whose prototype carries fields, as a JSON reader that assigns `__proto__` leaves it", async () => {
    const run = createFakeRun({ tools: [read] });
    const nested = { path: "a.txt", options: Object.setPrototypeOf({}, { limit: 1 }) as object };
    for (const [input, field] of [
      [Object.create({ path: "c.txt" }) as object, "__proto__"],
      [nested, "options.__proto__"],
      [
        {
          path: "a.txt",
          meta: [
            new (class Point {
              x = 1;
            })(),
          ],
        },
        "meta.0.__proto__",
      ],
    ] as const) {
      const result = await run.call("read", input);
      expect(result.content).toEqual([{ type: "text", text: refusal(field) }]);
    }
  });

  it("accepts objects without a prototype and objects made in another realm", async () => {
    const run = createFakeRun({ tools: [read] });
    const bare = Object.assign(Object.create(null) as object, { path: "a.txt" });
    expect((await run.call("read", bare)).content).toEqual([{ type: "text", text: 'read {"path":"a.txt"}' }]);
    const foreign = runInNewContext('({ path: "a.txt", meta: { list: [1, { deep: true }] } })') as object;
    expect((await run.call("read", foreign)).content).toEqual([
      { type: "text", text: 'read {"path":"a.txt","meta":{"list":[1,{"deep":true}]}}' },
    ]);
  });

  it("accepts a field named `constructor` where the schema declares one", async () => {
    expect(await answer('{"path": "a.txt", "edits": [{"constructor": "b"}]}')).toEqual({
      text: 'read {"path":"a.txt","edits":[{"constructor":"b"}]}',
      code: undefined,
    });
  });

  it("refuses `__proto__` even where a schema declares a field of that name", async () => {
    const odd = echoTool("odd", v.strictObject({ ["__proto__"]: v.optional(v.string()) }));
    const result = await createFakeRun({ tools: [odd] }).call("odd", JSON.parse('{"__proto__": "x"}'));
    expect(result.structured?.["error"]).toEqual({
      code: "invalid_input",
      message: refusal("__proto__").replace("Error (invalid_input): ", "").replace("`read`", "`odd`"),
    });
  });

  it("checks input nested deeper than the call stack without overflowing it", async () => {
    const depth = 100_000;
    const json = `{"path": "a.txt", "meta": ${"[".repeat(depth)}{"__proto__": 1}${"]".repeat(depth)}}`;
    const { text, code } = await answer(json);
    expect(code).toBe("invalid_input");
    const path = `meta.${"0.".repeat(depth)}__proto__`;
    expect(text).toContain(`Field \`${path.slice(0, 120)}… (${path.length} characters)\` is not accepted`);
  });

  it("walks a cyclic value once and finds nothing in it", () => {
    const cyclic: Record<string, unknown> = { name: "a" };
    cyclic["self"] = [cyclic];
    expect(findPrototypeKey(read.input, { path: "a.txt", meta: cyclic })).toBeUndefined();
  });
});
