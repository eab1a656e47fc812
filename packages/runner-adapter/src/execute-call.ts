import {
  errorResult,
  toToolResult,
  ToolError,
  type AnyResourceKey,
  type AnyTool,
  type CallerInfo,
  type ProgressUpdate,
  type ToolContext,
  type ToolResult,
  type WriteObserver,
} from "@runbound/tool-kit";
import { startHeartbeat, type HeartbeatTiming } from "./call-heartbeat.js";
import { isWellFormedResult } from "./is-well-formed-result.js";
import type { ResourceTable } from "./resource-table.js";
import { runWriteObservers } from "./run-write-observers.js";
import { withBudget } from "@runbound/runtime-kit";

/** Who is calling, how to cancel, and the tools already on the stack of `ctx.callTool` calls. */
export interface CallScope {
  caller: CallerInfo;
  signal: AbortSignal;
  chain: readonly string[];
  onProgress?: (update: ProgressUpdate) => void;
}

/** What one call's execution needs from its run. */
export interface ExecutionContext {
  runId: string;
  resources: ResourceTable;
  observers: readonly WriteObserver[];
  /** Budget of a tool that sets no `timeoutMs`. */
  defaultTimeoutMs: number;
  observerTimeoutMs: number;
  /** When a long call's heartbeat repeats its progress; false: never. */
  heartbeat: HeartbeatTiming | false;
  /** The run's listener of every call's progress. */
  onProgress: ((event: { runId: string; tool: string; update: ProgressUpdate }) => void) | undefined;
  /** Re-enter the run's dispatch, for `ctx.callTool`. */
  dispatch(name: string, input: unknown, scope: CallScope): Promise<ToolResult>;
}

/** One call under way: `result` answers the caller, `settled` tells when the tool itself has stopped. */
export interface CallExecution {
  result: Promise<ToolResult>;
  settled: Promise<void>;
}

/**
 * Run one validated, approved call within its budget, then let the write observers look at what it
 * wrote. `result` never rejects: a thrown error becomes an `isError` result.
 */
export function executeCall(tool: AnyTool, input: unknown, scope: CallScope, context: ExecutionContext): CallExecution {
  const { caller, signal } = scope;
  const { runId, resources } = context;
  const written: string[] = [];
  const label = `Tool \`${tool.name}\``;
  const send = (update: ProgressUpdate): void => {
    context.onProgress?.({ runId, tool: tool.name, update });
    scope.onProgress?.(update);
  };
  // One heartbeat per request: a nested `ctx.callTool` call's notices already reach the same listener.
  const listened = context.onProgress !== undefined || scope.onProgress !== undefined;
  const heartbeat =
    context.heartbeat === false || !listened || scope.chain.length > 0
      ? undefined
      : startHeartbeat(send, label, context.heartbeat);
  const progress = heartbeat === undefined ? send : heartbeat.report;
  const budget = withBudget(
    async (callSignal) => {
      const toolContext: ToolContext<AnyResourceKey> = {
        resource: resources.getter(label, tool.requires),
        signal: callSignal,
        run: { id: runId, caller },
        callTool: (name, nested) =>
          context.dispatch(name, nested, { ...scope, signal: callSignal, chain: [...scope.chain, tool.name] }),
        wrote: (paths) => void written.push(...paths),
        progress,
      };
      const result = toToolResult(await tool.run(input, toolContext));
      if (!isWellFormedResult(result)) {
        throw new ToolError({
          code: "internal",
          message: `${label} returned a malformed result (expected text or { content: [...] }). This is a bug in the tool.`,
        });
      }
      return result;
    },
    { timeoutMs: tool.timeoutMs ?? context.defaultTimeoutMs, signal, label },
  );
  const result = (async (): Promise<ToolResult> => {
    let answer: ToolResult;
    try {
      answer = await budget.result;
    } catch (error) {
      answer = errorResult(error, tool.name);
    }
    if (written.length === 0) return answer;
    const appended = await runWriteObservers(context.observers, [...new Set(written)], {
      attachedIds: resources.ids(),
      resourceGetter: resources.getter,
      run: { id: runId, caller },
      signal,
      timeoutMs: context.observerTimeoutMs,
      progress,
    });
    return appended.length > 0 ? { ...answer, content: [...answer.content, ...appended] } : answer;
  })().finally(() => heartbeat?.stop());
  return { result, settled: budget.settled };
}
