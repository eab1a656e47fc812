import type { CallToolResult } from "@modelcontextprotocol/server";
import { errorResult, ToolError, type AnyTool, type ToolResult } from "@runbound/tool-kit";
import { structuredResultProblem } from "./structured-result-problem.js";

/**
 * A run's answer as an MCP `CallToolResult`. `content` and `isError` pass as they are. `structured`
 * becomes `structuredContent` only for a successful call of a tool that declares an `output` schema,
 * once it matches that schema:
 * - without a schema it is left out: some clients show the model `structuredContent` instead of the
 *   text, and the text is the answer (bounded, with what write observers appended), while a free-form
 *   twin is neither bounded nor described to the client;
 * - an error result never carries it, because clients validate any `structuredContent` against the
 *   tool's output schema, error or not;
 * - a result that breaks its own schema is the tool's bug: it is answered as an `internal` error
 *   naming the field (followed by the tool's own text), never sent on to fail the client's validation.
 */
export function toCallToolResult(tool: AnyTool | undefined, result: ToolResult): CallToolResult {
  const isError = result.isError === true;
  if (isError || tool?.output === undefined) return { content: result.content, isError };
  const checked = structuredResultProblem(tool, result.structured);
  if ("json" in checked) return { content: result.content, isError: false, structuredContent: checked.json };
  const error = new ToolError({
    code: "internal",
    message: `Tool \`${tool.name}\` ${checked.problem}. This is a bug in the tool: report it to its plugin's authors. The tool's own answer follows.`,
  });
  return { content: [...errorResult(error, tool.name).content, ...result.content], isError: true };
}
