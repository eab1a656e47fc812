import { listDescendants } from "@runbound/runtime-kit/testing";
import { defineTool, resultText, Workdir, type ToolResult } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import * as v from "valibot";
import { afterAll, describe, expect, it } from "vitest";
import { createEvalTool } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory, type KernelLanguage } from "./kernel.js";
import { fixtureProject } from "./test-support/python-fixtures.js";

// Issue 22, item 2: whatever value a cell hands to tool() is that call's error, never the kernel's end.
// Each case runs in its own cell of one kernel; the kernel must answer the next cell with its state.

const echo = defineTool({
  name: "echo",
  tier: "read",
  description: "Answers its input as JSON.",
  // The fields the cases use; what reaches the tool is checked by the registry as usual.
  input: v.strictObject(
    Object.fromEntries(
      ["a", "big", "label", "offset", "rows", "n", "s", "deep", "skipped"].map((field) => [
        field,
        v.optional(v.unknown()),
      ]),
    ),
  ),
  requires: [],
  parallelSafe: true,
  run: async (input) => JSON.stringify(input),
});

const factories: HostKernelFactory[] = [];

afterAll(async () => {
  await Promise.all(factories.map((factory) => factory.dispose()));
  // Every kernel these tests started is gone from the process table.
  expect((await listDescendants(process.pid)).filter((row) => row.state !== "Z")).toEqual([]);
});

function session(language: KernelLanguage, factory: HostKernelFactory): (code: string) => Promise<ToolResult> {
  factories.push(factory);
  const run = createFakeRun({
    tools: [createEvalTool(), echo],
    resources: [
      [KernelFactory, factory],
      [Workdir, fixtureProject()],
    ],
  });
  return (code) => run.call("eval", { code, language, description: "pass an odd value through tool()" });
}

// [what the cell passes, what the error says]
const pythonCases: Array<[code: string, message: RegExp]> = [
  [
    'tool("echo", {"offset": float("nan")})',
    /ValueError: tool\("echo"\) cannot send `input\["offset"\]`: it is nan, which JSON cannot carry; pass a finite number, or None/,
  ],
  ['tool("echo", {"offset": float("inf")})', /ValueError: .*`input\["offset"\]`: it is inf, which JSON cannot carry/],
  ['tool("echo", {"rows": [1, -float("inf")]})', /ValueError: .*`input\["rows"\]\[1\]`: it is -inf/],
  [
    'tool("echo", {"n": 10**400})',
    /ValueError: .*`input\["n"\]`: it is an integer of 1329 bits, beyond what a JSON number carries exactly \(±\(2\*\*53 - 1\)\); pass it as a string/,
  ],
  ['tool("echo", {"n": 2**53})', /ValueError: .*`input\["n"\]`: it is an integer of 54 bits/],
  [
    'tool("echo", {1: "a"})',
    /TypeError: .*`input` has a key of type int \(1\); keys must be strings: convert them with str\(\)/,
  ],
  ['tool("echo", {(1, 2): "a"})', /TypeError: .*`input` has a key of type tuple; keys must be strings/],
  ['tool("echo", {"data": b"\\x00\\xff"})', /TypeError: .*`input\["data"\]`: it is bytes; decode it to a str/],
  ['tool("echo", {"tags": {"a", "b"}})', /TypeError: .*`input\["tags"\]`: it is a set; pass a list/],
  [
    'loop = {}\nloop["self"] = loop\ntool("echo", loop)',
    /ValueError: .*`input\["self"\]`: it contains itself; pass a structure without cycles/,
  ],
  [
    'class Opaque:\n    def __repr__(self): raise RuntimeError("no repr")\n    __str__ = __repr__\ntool("echo", {"x": Opaque()})',
    /TypeError: .*`input\["x"\]`: it is a Opaque, which JSON cannot carry/,
  ],
  [
    'tool("echo", {"s": "ok \\ud800 not"})',
    /ValueError: .*`input\["s"\]`: it is a string with a lone surrogate \(U\+D800 at index 3\)/,
  ],
  [
    'tool("echo", {"\\udfff": 1})',
    /ValueError: .*`input` has a key that is a string with a lone surrogate \(U\+DFFF at index 0\)/,
  ],
  [
    'tool("\\ud800", {})',
    /ValueError: tool\(\) takes the tool's name as a well-formed string; it has a lone surrogate \(U\+D800 at index 0\)/,
  ],
  [
    'deep = []\nfor _ in range(2000):\n    deep = [deep]\ntool("echo", {"deep": deep})',
    /ValueError: .*nests deeper than 100 levels; flatten it/,
  ],
  ['tool("echo", "not an object")', /TypeError: tool\("echo"\) takes its input as a dict, not str/],
];

async function expectPythonCases(call: (code: string) => Promise<ToolResult>): Promise<void> {
  await call("kept = 'still here'");
  for (const [code, message] of pythonCases) {
    const answer = await call(code);
    expect([code, answer.isError, resultText(answer)]).toEqual([code, true, expect.stringMatching(message)]);
    expect([code, resultText(await call("kept"))]).toEqual([code, "'still here'"]);
  }
  // What JSON does carry arrives unchanged: tuples as lists, a str subclass as its text.
  const fine = await call(
    'class Label(str): pass\ntool("echo", {"a": [1, 2.5, True, None, "é", (3, 4)], "label": Label("x"), "big": 2**53 - 1})',
  );
  // (in the order of the tool's schema)
  expect(resultText(fine)).toBe(`'{"a":[1,2.5,true,null,"é",[3,4]],"big":9007199254740991,"label":"x"}'`);
}

describe("tool() refuses values JSON cannot carry, as that call's error, the kernel alive", () => {
  it("in the native CPython kernel", async () => {
    const call = session("python", createHostKernelFactory({ python: "native" }));
    await expectPythonCases(call);
  }, 120_000);

  it("in the Pyodide kernel", async () => {
    const call = session("python", createHostKernelFactory({ python: "pyodide" }));
    await expectPythonCases(call);
  }, 240_000);

  it("in the JavaScript kernel", async () => {
    const call = session("javascript", createHostKernelFactory());
    const cases: Array<[code: string, message: RegExp]> = [
      [
        'await tool("echo", { offset: NaN })',
        /TypeError: tool\("echo"\) cannot send `input\.offset`: it is NaN, which JSON cannot carry; pass a finite number, or null/,
      ],
      ['await tool("echo", { offset: -Infinity })', /`input\.offset`: it is -Infinity/],
      [
        'await tool("echo", { n: 10n })',
        /`input\.n`: it is a bigint; pass Number\(value\) when it fits, or String\(value\)/,
      ],
      ['const loop = {}; loop.self = loop; await tool("echo", loop)', /`input\.self`: it contains itself/],
      [
        'await tool("echo", { when: new Date(0) })',
        /`input\.when`: it is a Date, which JSON cannot carry; pass plain objects, arrays, strings, finite numbers, booleans or null/,
      ],
      ['await tool("echo", { tags: new Set(["a"]) })', /`input\.tags`: it is a Set/],
      [
        'await tool("echo", { rows: [1, undefined] })',
        /`input\.rows\[1\]`: it is undefined; JSON arrays have no undefined: use null/,
      ],
      ['await tool("echo", { run: () => 1 })', /`input\.run`: it is a function/],
      [
        'await tool("echo", { s: "ok \\ud800 not" })',
        /`input\.s`: it is a string with a lone surrogate \(U\+D800 at index 3\)/,
      ],
      [
        'await tool("echo", { ["odd key\\udfff"]: 1 })',
        /`input\["odd key\\udfff"\]`: its key is a string with a lone surrogate \(U\+DFFF at index 7\)/,
      ],
      ['await tool("echo", { get boom() { throw new Error("getter failed"); } })', /Error: getter failed/],
      [
        'let deep = []; for (let i = 0; i < 2000; i++) deep = [deep]; await tool("echo", { deep })',
        /nests deeper than 100 levels; flatten it/,
      ],
      ['await tool(Symbol("x"), {})', /TypeError: tool\(\) takes the tool's name as a string first, not a symbol/],
    ];
    await call("let kept = 'still here'");
    for (const [code, message] of cases) {
      const answer = await call(code);
      expect([code, answer.isError, resultText(answer)]).toEqual([code, true, expect.stringMatching(message)]);
      expect([code, resultText(await call("kept"))]).toEqual([code, "'still here'"]);
    }
    // A property that is undefined is left out, as JSON.stringify does.
    expect(
      resultText(await call('(await tool("echo", { a: [1, 2.5, true, null, "é"], skipped: undefined })).text')),
    ).toBe(`'{"a":[1,2.5,true,null,"é"]}'`);
  }, 60_000);
});
