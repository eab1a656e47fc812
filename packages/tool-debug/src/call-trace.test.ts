import { describe, expect, it } from "vitest";
import { parseCallTrace, renderCallTrace } from "./call-trace.js";

const trace = [
  '["call", "main", "prog.py", 5, 0, []]',
  ...[0, 1, 2, 3, 4].flatMap((index) => [
    `["call", "add", "prog.py", 1, 1, [["a", "${index}"], ["b", "1"]]]`,
    `["return", 1, "${index + 1}"]`,
  ]),
  ...[0, 1, 2].flatMap(() => ['["call", "ping", "prog.py", 9, 1, []]', '["return", 1, "None"]']),
  '["call", "boom", "prog.py", 3, 1, [["x", "7"]]]',
  '["raise", 1, null]',
  '["return", 0, "\'done\'"]',
  '["call", "tail", "prog.py", 12, 0, []]',
  '["call", "half", "prog.py", 1',
].join("\n");

describe("call traces", () => {
  it("parses calls into a forest, skipping a line the program's end cut", () => {
    const { roots, events } = parseCallTrace(trace);
    expect(events).toBe(21);
    expect(roots.map((call) => call.name)).toEqual(["main", "tail"]);
    expect(roots[0]!.calls.map((call) => call.name)).toEqual([
      "add",
      "add",
      "add",
      "add",
      "add",
      "ping",
      "ping",
      "ping",
      "boom",
    ]);
    expect(roots[0]!.calls.at(-1)!.outcome).toEqual({ kind: "raise" });
    expect(roots[1]!.outcome).toBeUndefined();
  });

  it("renders repeats as one line and long runs of one function by their ends", () => {
    const rendered = renderCallTrace(parseCallTrace(trace).roots, 100);
    expect(rendered.lines).toEqual([
      "main() → 'done'  [prog.py:5]",
      "  add(a=0, b=1) → 1  [prog.py:1]",
      "  add(a=1, b=1) → 2",
      "  … 2 more call(s) of add",
      "  add(a=4, b=1) → 5",
      "  ping() → None  × 3  [prog.py:9]",
      "  boom(x=7) raised  [prog.py:3]",
      "tail() (still running)  [prog.py:12]",
    ]);
    expect(rendered).toMatchObject({ calls: 11, omittedCalls: 2 });
  });

  it("stops at the line budget and counts the calls left out", () => {
    const rendered = renderCallTrace(parseCallTrace(trace).roots, 2);
    expect(rendered.lines).toHaveLength(2);
    expect(rendered.omittedCalls).toBe(9);
  });
});
