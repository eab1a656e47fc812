import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { echoTool, invalidInputMessage } from "./__fixtures__/input-test-tools.js";
import { parseToolInput } from "./parse-tool-input.js";

const read = echoTool(
  "read",
  v.strictObject({
    path: v.pipe(v.string(), v.description("File path.")),
    offset: v.optional(v.pipe(v.number(), v.description("First line."))),
  }),
);
const messageOf = (raw: unknown): string => invalidInputMessage(read, raw);

describe("parseToolInput", () => {
  it("treats null for an optional field as absent, as OpenAI strict schemas make models send it", () => {
    expect(parseToolInput(read, { path: "a", offset: null })).toEqual({ path: "a" });
    expect(messageOf({ path: null })).toContain("Field `path` must be string, but got null.");
  });

  it("returns the parsed input", () => {
    expect(parseToolInput(read, { path: "a", offset: 2 })).toEqual({ path: "a", offset: 2 });
  });

  it("names a missing field and its type", () => {
    expect(messageOf({})).toContain("Field `path` is required (expected string).");
  });

  it("names a mistyped field, the expected and the received type", () => {
    expect(messageOf({ path: "a", offset: "3" })).toContain('Field `offset` must be number, but got "3".');
  });

  it("names an extra field and lists the accepted ones", () => {
    expect(messageOf({ path: "a", limit: 3 })).toContain(
      "Field `limit` is not accepted by `read`; its fields are `path`, `offset`.",
    );
  });

  it("names nested fields by their own type and lists the fields of the object that holds them", () => {
    const patch = echoTool(
      "patch",
      v.strictObject({
        edits: v.pipe(v.array(v.strictObject({ path: v.string(), line: v.number() })), v.description("The edits.")),
        options: v.optional(v.pipe(v.strictObject({ depth: v.number() }), v.description("Options."))),
      }),
    );
    const message = (raw: unknown): string => invalidInputMessage(patch, raw);
    expect(message({ edits: [{ path: "a" }] })).toContain("Field `edits.0.line` is required (expected number).");
    expect(message({ edits: [{ path: "a", line: 1, column: 2 }] })).toContain(
      "Field `edits.0.column` is not accepted by `edits.0` in `patch`; its fields are `path`, `line`.",
    );
    expect(message({ edits: [], options: { deep: 1 } })).toContain(
      "Field `options.deep` is not accepted by `options` in `patch`; its fields are `depth`.",
    );
  });

  it.each([
    ["README.md", "a string"],
    [["README.md"], "an array"],
    [null, "null"],
    [undefined, "no input"],
    [42, "a number"],
    [true, "a boolean"],
  ])("refuses the non-object input %o, naming what arrived", (raw, got) => {
    expect(messageOf(raw)).toBe(
      `Invalid input for \`read\`: it must be a JSON object with the fields \`path\`, \`offset\`, but got ${got}. Fix the input and call again.`,
    );
  });

  const status = echoTool("status", v.strictObject({}));
  const statusMessage = (raw: unknown): string => invalidInputMessage(status, raw);

  it("says what a tool without fields accepts", () => {
    expect(statusMessage("now")).toBe(
      "Invalid input for `status`: it must be a JSON object, but got a string. Fix the input and call again.",
    );
    expect(statusMessage({ verbose: true })).toBe(
      "Invalid input for `status`: Field `verbose` is not accepted by `status`; its fields are (none). Fix the input and call again.",
    );
    expect(parseToolInput(status, {})).toEqual({});
  });

  const range = echoTool(
    "range",
    v.pipe(
      v.strictObject({
        from: v.optional(v.pipe(v.number(), v.minValue(1))),
        to: v.optional(v.number()),
        mode: v.nullable(v.string()),
        choice: v.optional(v.union([v.string(), v.number()])),
      }),
      v.check(
        (input) => input.from === undefined || input.to === undefined || input.from <= input.to,
        "`from` must not be greater than `to`",
      ),
    ),
  );

  const rangeMessage = (raw: unknown): string => invalidInputMessage(range, raw);

  it("quotes a failed check on a field and on the whole input", () => {
    expect(rangeMessage({ from: 0, mode: null })).toBe(
      "Invalid input for `range`: Field `from`: Invalid value: Expected >=1 but received 0. Fix the input and call again.",
    );
    expect(rangeMessage({ from: 3, to: 2, mode: null })).toBe(
      "Invalid input for `range`: `from` must not be greater than `to`. Fix the input and call again.",
    );
  });

  it("keeps the message small whatever the input quotes: long keys, long values, many problems", () => {
    const key = "k".repeat(100_000);
    expect(messageOf({ path: "a", [key]: 1 })).toBe(
      `Invalid input for \`read\`: Field \`${"k".repeat(120)}… (100000 characters)\` is not accepted by \`read\`; its fields are \`path\`, \`offset\`. Fix the input and call again.`,
    );
    expect(messageOf({ path: "a", offset: "9".repeat(100_000) })).toBe(
      `Invalid input for \`read\`: Field \`offset\` must be number, but got "${"9".repeat(119)}… (100002 characters). Fix the input and call again.`,
    );
    const named = echoTool("named", v.strictObject({ name: v.pipe(v.string(), v.regex(/^[a-z]+$/)) }));
    const issue = `Invalid format: Expected /^[a-z]+$/ but received "${"X".repeat(100_000)}"`;
    expect(invalidInputMessage(named, { name: "X".repeat(100_000) })).toBe(
      `Invalid input for \`named\`: Field \`name\`: ${issue.slice(0, 300)}… (${issue.length} characters). Fix the input and call again.`,
    );
    const list = echoTool("list", v.strictObject({ items: v.array(v.string()) }));
    const message = invalidInputMessage(list, { items: Array.from({ length: 1000 }, (_, index) => index) });
    const shown = Array.from(
      { length: 10 },
      (_, index) => `Field \`items.${index}\` must be string, but got ${index}.`,
    ).join(" ");
    expect(message).toBe(
      `Invalid input for \`list\`: ${shown} 990 more problems not shown. Fix the input and call again.`,
    );
  });

  it.each([
    [10, ""],
    [11, " 1 more problem not shown."],
    [12, " 2 more problems not shown."],
  ])("lists %i problems as ten and says how many more there are", (count, rest) => {
    const list = echoTool("list", v.strictObject({ items: v.array(v.string()) }));
    const shown = Array.from(
      { length: 10 },
      (_, index) => `Field \`items.${index}\` must be string, but got ${index}.`,
    ).join(" ");
    expect(invalidInputMessage(list, { items: Array.from({ length: count }, (_, index) => index) })).toBe(
      `Invalid input for \`list\`: ${shown}${rest} Fix the input and call again.`,
    );
  });

  it("cuts a long quote without splitting a character written as two UTF-16 units", () => {
    expect(messageOf({ path: "a", [`${"k".repeat(119)}😀😀`]: 1 })).toContain(
      `Field \`${"k".repeat(119)}… (123 characters)\` is not accepted`,
    );
  });

  it("names a missing field by the type behind its wrappers, and lists every problem", () => {
    expect(rangeMessage({ choice: true })).toBe(
      "Invalid input for `range`: Field `mode` is required (expected string). Field `choice` must be (string | number), but got true. Fix the input and call again.",
    );
  });
  describe("ill-formed strings (a lone surrogate) anywhere in the input", () => {
    const debug = echoTool(
      "debug",
      v.strictObject({
        file: v.optional(v.string()),
        breakpoints: v.optional(v.array(v.strictObject({ file: v.string(), lines: v.array(v.number()) }))),
        env: v.optional(v.record(v.string(), v.string())),
      }),
    );
    const wellFormed = (text: string): boolean =>
      !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

    it("refuses a value, naming the field, the lone surrogate, its position and the way out", () => {
      expect(invalidInputMessage(debug, { file: "\ud800x" })).toBe(
        "Invalid input for `debug`: Field `file` is not well-formed Unicode text: it has a lone surrogate `\\ud800` (half of a UTF-16 surrogate pair, without its other half) at position 0 of `\\ud800x`, counted in UTF-16 code units from 0. Such a string has no UTF-8 form, so files and programs would receive it changed. Send the whole character (both halves of the pair, or the character itself), or remove the stray half. Fix the input and call again.",
      );
    });

    it("names a value nested in arrays and objects, and a key of a record, with a well-formed message", () => {
      const nested = invalidInputMessage(debug, {
        breakpoints: [
          { file: "a.py", lines: [1] },
          { file: "src/\udc00.py", lines: [2] },
        ],
      });
      expect(nested).toContain(
        "Field `breakpoints.1.file` is not well-formed Unicode text: it has a lone surrogate `\\udc00`",
      );
      expect(nested).toContain("at position 4 of `src/\\udc00.py`");
      const key = invalidInputMessage(debug, { env: { PATH: "/bin", "LANG\ud800": "C" } });
      expect(key).toContain("The key `LANG\\ud800` of `env` is not well-formed Unicode text");
      expect(key).toContain("at position 4, counted");
      expect(invalidInputMessage(debug, { "\ud800": 1 })).toContain(
        "The key `\\ud800` of the input is not well-formed",
      );
      for (const message of [nested, key]) expect(wellFormed(message)).toBe(true);
    });

    it("refuses before the schema, so a field the schema would refuse too is named for its text", () => {
      expect(invalidInputMessage(debug, { file: 3, unknown: "\ud800" })).toContain(
        "Field `unknown` is not well-formed",
      );
    });

    it("quotes a long string around the lone surrogate, without splitting a pair at the cut", () => {
      const text = `${"a".repeat(1_000)}\ud800${"😀".repeat(500)}`;
      const message = invalidInputMessage(debug, { file: text });
      expect(message).toContain(`at position 1000 of \`…${"a".repeat(30)}\\ud800${"😀".repeat(15)}…\``);
      expect(wellFormed(message)).toBe(true);
    });

    it("accepts surrogate pairs", () => {
      expect(parseToolInput(debug, { file: "😀.py", env: { "K😀": "v😀" } })).toEqual({
        file: "😀.py",
        env: { "K😀": "v😀" },
      });
    });
  });
});
