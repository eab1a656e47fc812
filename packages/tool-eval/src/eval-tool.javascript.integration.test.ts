import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { defineTool, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createEvalTool } from "./eval-tool.js";
import { createHostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { fixtureProject } from "./test-support/python-fixtures.js";

const shout = defineTool({
  name: "shout",
  tier: "read",
  description: "Answers its text in capitals.",
  input: v.strictObject({ text: v.string() }),
  requires: [],
  parallelSafe: true,
  run: async (input) => input.text.toUpperCase(),
});

describe("eval with language javascript", () => {
  it("runs in the factory's JavaScript kernel, keeps state, awaits tool(), and the kernel goes with the factory", async () => {
    const factory = createHostKernelFactory();
    const run = createFakeRun({
      tools: [createEvalTool(), shout],
      resources: [
        [KernelFactory, factory],
        [Workdir, fixtureProject()],
      ],
    });
    const call = (code: string) =>
      run.call("eval", { code, language: "javascript", description: "check what the javascript kernel answers" });
    try {
      expect(resultText(await call("let total = 40; total + 1"))).toMatch(/^\[started .+\]\n41$/);
      expect(resultText(await call("const answer = await tool('shout', { text: 'hi' }); answer.text + total"))).toBe(
        "'HI40'",
      );
      const pid = Number(resultText(await call("process.pid")));
      await factory.dispose();
      expect((await listProcessGroup(pid)).filter((row) => row.state !== "Z")).toEqual([]);
    } finally {
      await factory.dispose();
    }
  });
});
