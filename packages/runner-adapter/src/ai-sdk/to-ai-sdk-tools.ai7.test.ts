import { generateText, stepCountIs } from "ai7";
import { MockLanguageModelV4 } from "ai7/test";
import { expect, it, vi } from "vitest";
import { describeAiSdkAdapter, type AiSdkUnderTest } from "../__fixtures__/describe-ai-sdk-adapter.js";

// The workspace's `ai` is ai 6 (the devDependency); the adapter's own `import ... from "ai"` must load
// ai 7 here, as it does in a project that installed ai 7, so this file hands it the real ai7 alias.
vi.mock("ai", async () => await import("ai7"));

describeAiSdkAdapter("7", {
  generateText: generateText as unknown as AiSdkUnderTest["generateText"],
  stepCountIs,
  mockModel: (doGenerate) =>
    new MockLanguageModelV4({ doGenerate: doGenerate as MockLanguageModelV4["doGenerate"] }) as unknown as ReturnType<
      AiSdkUnderTest["mockModel"]
    >,
  responseMessages: (outcome) => (outcome as unknown as Awaited<ReturnType<typeof generateText>>).responseMessages,
});

it("hands the adapter the real ai 7", async () => {
  const seenByAdapter = await import("ai");
  expect(seenByAdapter.generateText).toBe(generateText);
  expect((await import("ai7/package.json", { with: { type: "json" } })).default.version).toMatch(/^7\./);
});
