import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describeAiSdkAdapter, type AiSdkUnderTest } from "../__fixtures__/describe-ai-sdk-adapter.js";

describeAiSdkAdapter("6", {
  generateText: generateText as unknown as AiSdkUnderTest["generateText"],
  stepCountIs,
  mockModel: (doGenerate) =>
    new MockLanguageModelV3({ doGenerate: doGenerate as MockLanguageModelV3["doGenerate"] }) as unknown as ReturnType<
      AiSdkUnderTest["mockModel"]
    >,
  responseMessages: (outcome) => (outcome as unknown as Awaited<ReturnType<typeof generateText>>).response.messages,
});
