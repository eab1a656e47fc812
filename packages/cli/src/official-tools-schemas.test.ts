import { exportInputSchema, SCHEMA_PROFILES, schemaProfileViolations } from "@runbound/runner-adapter";
import { describe, expect, it } from "vitest";
import { loadOfficialPlugins } from "./official-plugins.js";

describe("every official tool's schema", () => {
  // Every tool of every official package, registered in a run or not (ask_user and vibe_* need a
  // human or vibe mode): a host may export any of them.
  it("exports under each profile (json, openai-strict, anthropic) and meets its rules", async () => {
    const tools = (await loadOfficialPlugins()).flatMap((plugin) => plugin.tools);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["read", "ast_grep", "lsp", "eval", "debug", "ask_user", "vibe_spawn", "vibe_list"]),
    );
    const problems: string[] = [];
    for (const tool of tools) {
      for (const profile of SCHEMA_PROFILES) {
        try {
          const violations = schemaProfileViolations(exportInputSchema(tool, profile), profile);
          if (violations.length > 0) problems.push(`${tool.name} / ${profile}: ${violations.join("; ")}`);
        } catch (error) {
          problems.push(`${tool.name} / ${profile}: ${(error as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
