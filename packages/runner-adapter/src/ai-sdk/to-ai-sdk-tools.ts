import {
  errorResult,
  parseToolInput,
  ToolError,
  type AnyTool,
  type CallerInfo,
  type ToolResult,
} from "@runbound/tool-kit";
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from "ai";
import type { ApprovalPolicy } from "../approval.js";
import { withApprovedCall } from "../approved-call-scope.js";
import { approvedInConversation } from "./approved-in-conversation.js";
import type { Run } from "../create-run.js";
import { exportInputSchema } from "../schema/export-input-schema.js";
import type { SchemaProfile } from "../schema/schema-profile.js";

/** Settings of {@link toAiSdkTools}. */
export interface AiSdkToolsSettings {
  /** Whose view of the run to expose; default the run's caller. */
  caller?: CallerInfo;
  /**
   * The dialect of each tool's input schema; default `json`. `openai-strict` also sets the AI SDK's
   * `strict: true` on every tool, so providers that support it constrain the model to the schema.
   */
  profile?: SchemaProfile;
  /**
   * The approval policy the run was created with. When given, a call the policy answers "ask" is
   * surfaced through the AI SDK's tool approval (`needsApproval`) instead of the run's approver: the
   * AI SDK's user approves or denies it, and an approved call runs without being asked again.
   */
  needsApproval?: ApprovalPolicy;
}

type ModelOutput = Awaited<ReturnType<NonNullable<Tool<unknown, ToolResult>["toModelOutput"]>>>;

function toModelOutput(result: ToolResult): ModelOutput {
  const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  if (result.isError === true) return { type: "error-text", value: text };
  return {
    type: "content",
    // `file-data` is deprecated in ai 7 in favour of `file`, which ai 6 does not know; both accept it.
    value: result.content.map((part) =>
      part.type === "text"
        ? { type: "text", text: part.text }
        : { type: "file-data", data: part.data, mediaType: part.mimeType },
    ),
  };
}

/**
 * The tool's input schema in `profile`. A tool that `openai-strict` cannot express faithfully (a
 * record, a string length bound, …) is given its `json` schema without ai's `strict` flag rather than
 * a schema that lies or no tool at all: the provider then does not constrain the model for that tool,
 * and the run's validation still answers a wrong input with a clear error.
 */
function exportFor(runTool: AnyTool, profile: SchemaProfile): { schema: unknown; strict: boolean } {
  if (profile !== "openai-strict") return { schema: exportInputSchema(runTool, profile), strict: false };
  try {
    return { schema: exportInputSchema(runTool, "openai-strict"), strict: true };
  } catch (error) {
    if (!ToolError.isInstance(error) || error.code !== "invalid_plugin") throw error;
    return { schema: exportInputSchema(runTool, "json"), strict: false };
  }
}

/**
 * Wrap the tools a caller sees as Vercel AI SDK tools (ai 6 and 7). The set is a snapshot: build it
 * again before each step when resources may attach or detach (every call is still checked by the run
 * itself).
 *
 * Input is validated with the tool's own valibot schema here too, because the AI SDK's Standard
 * Schema path accepts invalid valibot input (runner research §5.3).
 */
// The tool calls each run has already run on the strength of an approval in the conversation. ai
// executes an approved call whenever the messages it is given end with that approval, so the same
// messages given twice would run it twice (overwriting a later change); an approval is good for one run.
const spentApprovals = new WeakMap<Run, Set<string>>();

function spendApproval(run: Run, toolCallId: string): boolean {
  let spent = spentApprovals.get(run);
  if (spent === undefined) spentApprovals.set(run, (spent = new Set()));
  if (spent.has(toolCallId)) return false;
  spent.add(toolCallId);
  return true;
}

function approvalAlreadySpent(name: string, toolCallId: string): ToolResult {
  return errorResult(
    new ToolError({
      code: "denied",
      message: `This \`${name}\` call (${toolCallId}) already ran once on its approval in this run, and an approval covers one run, so it was not run again. If it should run again, make a new call and ask the user again.`,
    }),
    name,
  );
}

// The AI SDK gives its approval question no signal: it is asked once, before the call, and not withdrawn.
const neverWithdrawn = new AbortController().signal;

export function toAiSdkTools(run: Run, settings: AiSdkToolsSettings = {}): ToolSet {
  const caller = settings.caller ?? run.caller;
  const profile = settings.profile ?? "json";
  const policy = settings.needsApproval;
  const tools: ToolSet = {};
  for (const runTool of run.visibleTools(caller)) {
    const exported = exportFor(runTool, profile);
    tools[runTool.name] = tool<unknown, ToolResult>({
      description: runTool.description,
      inputSchema: jsonSchema(exported.schema as JSONSchema7, {
        validate: (value) => {
          try {
            return { success: true, value: parseToolInput(runTool, value) };
          } catch (error) {
            return { success: false, error: error as Error };
          }
        },
      }),
      ...(exported.strict ? { strict: true } : {}),
      ...(policy === undefined
        ? {}
        : {
            needsApproval: async (input: unknown) =>
              (await policy({ tool: runTool, input, caller, runId: run.id }, neverWithdrawn)) === "ask",
          }),
      execute: (input, options) => {
        const call = () => run.call(runTool.name, input, { caller, signal: options.abortSignal });
        // Only the AI SDK user's recorded yes to this very call stands in for the run's approver, once; a
        // call that reached `execute` any other way is asked about by the run as usual.
        if (policy === undefined || !approvedInConversation(options.messages, options.toolCallId)) return call();
        return spendApproval(run, options.toolCallId)
          ? withApprovedCall(runTool.name, call)
          : Promise.resolve(approvalAlreadySpent(runTool.name, options.toolCallId));
      },
      toModelOutput: ({ output }) => toModelOutput(output),
    });
  }
  return tools;
}
