import { defineResource, definePlugin, defineTool, resultErrorCode, TIERS, type Tier } from "@runbound/tool-kit";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createRun } from "./create-run.js";
import { exportToolSchemas } from "./schema/export-tool-schemas.js";

const resourceKeys = ["alpha", "beta", "gamma"].map((id) => defineResource<string>(`prop.${id}`, `Resource ${id}.`));

const toolSpec = fc.record({
  tier: fc.constantFrom<Tier>(...TIERS),
  requires: fc.subarray(resourceKeys),
});

describe("visibility property", () => {
  it("the schema a caller sees and what dispatch accepts never disagree (callers × tiers × attached resources)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(toolSpec, { minLength: 1, maxLength: 8 }),
        fc.subarray(resourceKeys),
        fc.constantFrom<Tier>(...TIERS),
        async (specs, attachedKeys, ceiling) => {
          const tools = specs.map((spec, index) =>
            defineTool({
              name: `tool_${index}`,
              tier: spec.tier,
              description: "Answers ok.",
              input: v.strictObject({}),
              requires: spec.requires,
              parallelSafe: true,
              run: async () => "ok",
            }),
          );
          const run = createRun({ plugins: [definePlugin({ name: "prop", version: "1.0.0", tools })] });
          for (const key of attachedKeys) await run.attach(key, { value: key.id });
          const caller = { name: "caller", ceiling };
          const inSchema = new Set(
            exportToolSchemas(run.visibleTools(caller), "json").map((entry) => entry["name"] as string),
          );
          for (const tool of tools) {
            const result = await run.call(tool.name, {}, { caller });
            const accepted = result.isError !== true;
            expect(
              accepted,
              `${tool.name} (${tool.tier}, needs ${tool.requires.map((key) => key.id).join("+")}) for ceiling ${ceiling}: ${resultErrorCode(result)}`,
            ).toBe(inSchema.has(tool.name));
          }
          await run.close();
        },
      ),
      { numRuns: 200 },
    );
  });
});
