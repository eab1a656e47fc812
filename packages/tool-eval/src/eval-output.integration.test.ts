import { Workdir, type ToolResult } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { evalOutputSchema } from "./eval-output.js";
import { createEvalTool, evalTool } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { fixtureProject, testVirtualenv } from "./test-support/python-fixtures.js";

const venv = testVirtualenv();
const factories: HostKernelFactory[] = [];
afterEach(async () => {
  await Promise.all(factories.splice(0).map((factory) => factory.dispose()));
});

/** Run eval cells over a fresh host kernel factory; each answer's structured value parsed as an MCP client receives it. */
function evalIn(workdir: string): (input: Record<string, unknown>) => Promise<v.InferOutput<typeof evalOutputSchema>> {
  const factory = createHostKernelFactory();
  factories.push(factory);
  const run = createFakeRun({
    tools: [createEvalTool()],
    resources: [
      [KernelFactory, factory],
      [Workdir, workdir],
    ],
  });
  return async (input) => {
    const result: ToolResult = await run.call("eval", {
      description: "check the structured answer of a cell",
      ...input,
    });
    expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
    return v.parse(evalOutputSchema, JSON.parse(JSON.stringify(result.structured)) as unknown);
  };
}

it("eval declares its output schema, which refuses what the tool never answers", () => {
  expect(evalTool.output).toBe(evalOutputSchema);
  expect(createEvalTool({ inactivityTimeoutMs: 1_000 }).output).toBe(evalOutputSchema);
  expect(v.safeParse(evalOutputSchema, { language: "ruby", kernel: "x", status: "ok" }).success).toBe(false);
  expect(v.safeParse(evalOutputSchema, { language: "python", status: "ok" }).success).toBe(false);
});

describe("eval's structured answers", () => {
  it("JavaScript: a cell, a print, and a reset without code match the schema", async () => {
    const call = evalIn(fixtureProject());
    expect(await call({ code: "let total = 40; total + 1", language: "javascript" })).toEqual({
      language: "javascript",
      kernel: expect.stringMatching(/^Node\.js /),
      status: "ok",
      state: "kept",
    });
    expect(await call({ code: "console.log('shown'); total", language: "javascript" })).toMatchObject({
      state: "kept",
    });
    expect(await call({ code: "", language: "javascript", reset: true })).toEqual({
      language: "javascript",
      kernel: expect.stringMatching(/^Node\.js /),
      status: "ok",
    });
  });

  it.runIf(venv !== undefined)("Python: a cell with a table and a figure matches the schema", async () => {
    const call = evalIn(fixtureProject(venv));
    const cell = [
      "import pandas as pd, matplotlib.pyplot as plt",
      "frame = pd.DataFrame({'a': [1, 2]})",
      "plt.plot(frame['a'])",
      "display(frame)",
    ].join("\n");
    expect(await call({ code: cell })).toEqual({
      language: "python",
      kernel: expect.any(String),
      status: "ok",
      state: "kept",
    });
  });
});
