import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportInputSchema, SCHEMA_PROFILES, schemaProfileViolations } from "@runbound/runner-adapter";
import { describe, expect, it } from "vitest";
import { openRun } from "./open-run.js";

describe("every registered tool's schema", () => {
  it("meets each profile's rules (json, openai-strict, anthropic)", async () => {
    const { run } = await openRun({ workdir: await mkdtemp(join(tmpdir(), "runbound-schemas-")), plugins: [], caller: { name: "main", ceiling: "exec" } });
    try {
      expect(run.tools.length).toBeGreaterThanOrEqual(7);
      for (const tool of run.tools) {
        for (const profile of SCHEMA_PROFILES) {
          expect(schemaProfileViolations(exportInputSchema(tool, profile), profile), `${tool.name} / ${profile}`).toEqual([]);
        }
      }
    } finally {
      await run.close();
    }
  });
});
