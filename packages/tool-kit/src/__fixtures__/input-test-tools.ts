import type { GenericSchema } from "valibot";
import { defineTool, type AnyTool, type Tool } from "../define-tool.js";
import { parseToolInput } from "../parse-tool-input.js";
import { ToolError } from "../tool-error.js";

/** A read tool with `input` that answers with the input it was given, so a test sees what validation let through. */
export function echoTool<S extends GenericSchema>(name: string, input: S): Tool<S, never> {
  return defineTool({
    name,
    tier: "read",
    description: "Answers with its input.",
    input,
    requires: [],
    parallelSafe: true,
    run: async (parsed) => `${name} ${JSON.stringify(parsed)}`,
  });
}

/** The message of the `invalid_input` error `parseToolInput` throws for `raw`; any other outcome fails the test. */
export function invalidInputMessage(tool: AnyTool, raw: unknown): string {
  try {
    parseToolInput(tool, raw);
  } catch (error) {
    if (ToolError.isInstance(error) && error.code === "invalid_input") return error.message;
    throw error;
  }
  throw new Error(`\`${tool.name}\` accepted the input; expected invalid_input.`);
}
