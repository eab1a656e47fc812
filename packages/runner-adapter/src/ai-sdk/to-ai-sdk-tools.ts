import { parseToolInput, type CallerInfo, type ToolResult } from "@runbound/tool-kit";
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from "ai";
import type { Run } from "../create-run.js";
import { exportInputSchema } from "../schema/export-input-schema.js";

/** Settings of {@link toAiSdkTools}. */
export interface AiSdkToolsSettings {
  /** Whose view of the run to expose; default the run's caller. */
  caller?: CallerInfo;
}

type ModelOutput = Awaited<ReturnType<NonNullable<Tool<unknown, ToolResult>["toModelOutput"]>>>;

function toModelOutput(result: ToolResult): ModelOutput {
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).filter(Boolean).join("\n");
  if (result.isError === true) return { type: "error-text", value: text };
  return {
    type: "content",
    value: result.content.map((part) => (part.type === "text" ? { type: "text", text: part.text } : { type: "file-data", data: part.data, mediaType: part.mimeType })),
  };
}

/**
 * Wrap the tools a caller sees as Vercel AI SDK tools. The set is a snapshot: build it again before each
 * step when resources may attach or detach (every call is still checked by the run itself).
 *
 * Input is validated with the tool's own valibot schema here too, because the AI SDK's Standard
 * Schema path accepts invalid valibot input (runner research §5.3).
 */
export function toAiSdkTools(run: Run, settings: AiSdkToolsSettings = {}): ToolSet {
  const caller = settings.caller ?? run.caller;
  const tools: ToolSet = {};
  for (const runTool of run.visibleTools(caller)) {
    tools[runTool.name] = tool<unknown, ToolResult>({
      description: runTool.description,
      inputSchema: jsonSchema(exportInputSchema(runTool, "json") as JSONSchema7, {
        validate: (value) => {
          try {
            return { success: true, value: parseToolInput(runTool, value) };
          } catch (error) {
            return { success: false, error: error as Error };
          }
        },
      }),
      execute: (input, options) => run.call(runTool.name, input, { caller, signal: options.abortSignal }),
      toModelOutput: ({ output }) => toModelOutput(output),
    });
  }
  return tools;
}
