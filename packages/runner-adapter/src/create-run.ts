import { randomUUID } from "node:crypto";
import {
  assertValidPlugin,
  errorResult,
  parseToolInput,
  toToolResult,
  ToolError,
  type AnyResourceKey,
  type AnyTool,
  type CallerInfo,
  type Plugin,
  type ProgressUpdate,
  type ResourceInstance,
  type ResourceKey,
  type ToolContext,
  type ToolResult,
  type WriteObserver,
} from "@runbound/tool-kit";
import { allowAll, type ApprovalPolicy, type ApprovalRequest, type Approver } from "./approval.js";
import { MAIN_CALLER } from "./callers.js";
import { capOutput, DEFAULT_OUTPUT_LIMIT_BYTES } from "./cap-output.js";
import { whyToolHidden, type ToolHiddenReason } from "./is-tool-visible.js";
import { isWellFormedResult } from "./is-well-formed-result.js";
import { runWriteObservers } from "./run-write-observers.js";
import { exportInputSchema } from "./schema/export-input-schema.js";
import { SerialQueue } from "./serial-queue.js";
import { withBudget } from "./with-budget.js";

/** Settings of {@link createRun}. */
export interface RunSettings {
  /** The plugins whose tools the run may offer. Tool names must be unique across them. */
  plugins: readonly Plugin[];
  /** The run's id; default a random UUID. */
  id?: string;
  /** The default caller of {@link Run.call} and {@link Run.visibleTools}; default {@link MAIN_CALLER}. */
  caller?: CallerInfo;
  /** Decides per call: allow, deny or ask; default {@link allowAll}. */
  approvalPolicy?: ApprovalPolicy;
  /** Answers "ask" decisions; without one, "ask" becomes a denial at once. */
  approver?: Approver;
  /** Budget of a call when the tool sets none; default 120 000 ms. */
  defaultTimeoutMs?: number;
  /** Budget of each write observer; default 15 000 ms. */
  observerTimeoutMs?: number;
  /** How long an approver may take to answer; past it the call is not run (`timeout`); default 300 000 ms. */
  approvalTimeoutMs?: number;
  /** Cap on a result's text; default 16 KiB. */
  outputLimitBytes?: number;
  /** Receives progress notices of running calls. */
  onProgress?: (event: { runId: string; tool: string; update: ProgressUpdate }) => void;
}

/** Options of one {@link Run.call}. */
export interface CallOptions {
  /** Who calls; default the run's caller. */
  caller?: CallerInfo;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Receives this call's progress notices (and those of tools it calls through `ctx.callTool`). */
  onProgress?: (update: ProgressUpdate) => void;
}

/** Whether one tool is registered for a caller, and why not. */
export interface ToolStatus {
  tool: AnyTool;
  /** The plugin that defines it. */
  plugin: string;
  /** True when the caller sees it. */
  registered: boolean;
  /** Present when not registered. */
  hidden?: ToolHiddenReason;
}

/** One run: its tools, its attached resources, its callers. */
export interface Run {
  readonly id: string;
  /** The default caller. */
  readonly caller: CallerInfo;
  /** Every tool of every plugin, visible or not. */
  readonly tools: readonly AnyTool[];
  /** The plugins. */
  readonly plugins: readonly Plugin[];
  /** Attach a resource; replacing one disposes the old instance. */
  attach<T>(key: ResourceKey<T>, instance: ResourceInstance<T>): Promise<void>;
  /** Detach a resource and dispose it; its tools disappear. */
  detach(key: AnyResourceKey): Promise<void>;
  /** Whether a resource is attached. */
  isAttached(key: AnyResourceKey): boolean;
  /** The value attached under `key`, if any (for hosts, e.g. a status command). */
  resource<T>(key: ResourceKey<T>): T | undefined;
  /** A resource's own availability detail (its `describe()`), or undefined when it has none or is not attached. */
  describeResource(key: AnyResourceKey): Promise<string | undefined>;
  /** The tools a caller sees: the same set dispatch accepts. */
  visibleTools(caller?: CallerInfo): AnyTool[];
  /** Every tool with whether the caller sees it and why not. */
  toolStatus(caller?: CallerInfo): ToolStatus[];
  /** Call a tool; never throws: failures are `isError` results. */
  call(name: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
  /** Set or clear the approver (e.g. when a client connects). */
  setApprover(approver: Approver | undefined): void;
  /** Called whenever the visible tool set may have changed (a resource attached or detached). */
  onToolsChanged(listener: () => void): () => void;
  /** Abort running calls and dispose every resource. Idempotent. */
  close(): Promise<void>;
}

/** Who is calling, how to cancel, and the tools already on the stack of `ctx.callTool` calls. */
interface CallScope {
  caller: CallerInfo;
  signal: AbortSignal;
  chain: readonly string[];
  onProgress?: (update: ProgressUpdate) => void;
}

interface AttachedResource {
  key: AnyResourceKey;
  instance: ResourceInstance<unknown>;
}

// How long a stopped call may take to release what it holds before the run moves on without it.
const settleGraceMs = 5_000;

function collectTools(plugins: readonly Plugin[]): Map<string, { tool: AnyTool; plugin: string }> {
  const tools = new Map<string, { tool: AnyTool; plugin: string }>();
  for (const plugin of plugins) {
    assertValidPlugin(plugin);
    for (const tool of plugin.tools) {
      const existing = tools.get(tool.name);
      if (existing !== undefined) {
        throw new ToolError({
          code: "invalid_plugin",
          message: `Tool \`${tool.name}\` is defined by both \`${existing.plugin}\` and \`${plugin.name}\`. Load only one of them.`,
        });
      }
      // A schema no model can be shown would break every tool list later; refuse the plugin now.
      exportInputSchema(tool, "json");
      tools.set(tool.name, { tool, plugin: plugin.name });
    }
  }
  return tools;
}

async function disposeQuietly(resource: AttachedResource): Promise<void> {
  const dispose = resource.instance.dispose;
  if (dispose === undefined) return;
  try {
    // Bounded, so a resource that hangs while cleaning up cannot hang `close()` or `detach()`.
    await withBudget(async () => dispose(), { timeoutMs: settleGraceMs, signal: new AbortController().signal, label: `Disposing \`${resource.key.id}\`` }).result;
  } catch {
    // A resource that fails to clean up must not keep the others from cleaning up.
  }
}

/**
 * Create a run. It dispatches every call as: visibility → validation (by the adapter itself) →
 * approval → run with abort and timeout → write observers → output cap. A tool's thrown error becomes
 * an `isError` result; nothing a tool does can end the run.
 */
export function createRun(settings: RunSettings): Run {
  const registry = collectTools(settings.plugins);
  const observers: WriteObserver[] = settings.plugins.flatMap((plugin) => [...plugin.observers]);
  const runId = settings.id ?? randomUUID();
  const defaultCaller = settings.caller ?? MAIN_CALLER;
  const approvalPolicy = settings.approvalPolicy ?? allowAll;
  const defaultTimeoutMs = settings.defaultTimeoutMs ?? 120_000;
  const observerTimeoutMs = settings.observerTimeoutMs ?? 15_000;
  const approvalTimeoutMs = settings.approvalTimeoutMs ?? 300_000;
  const outputLimitBytes = settings.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  let approver = settings.approver;
  const attached = new Map<string, AttachedResource>();
  const listeners = new Set<() => void>();
  const serial = new SerialQueue();
  const closing = new AbortController();
  const inFlight = new Set<Promise<void>>();

  const attachedIds = (): ReadonlySet<string> => new Set(attached.keys());
  const notify = (): void => {
    for (const listener of listeners) listener();
  };

  function resourceGetter(owner: string, declared: readonly AnyResourceKey[]) {
    return (key: AnyResourceKey): never => {
      if (!declared.some((required) => required.id === key.id)) {
        throw new ToolError({ code: "internal", message: `\`${owner}\` asked for resource \`${key.id}\` without declaring it in \`requires\`.` });
      }
      const resource = attached.get(key.id);
      if (resource === undefined) {
        throw new ToolError({ code: "unavailable", message: `Resource \`${key.id}\` was detached during the call. Try again once it is attached.` });
      }
      return resource.instance.value as never;
    };
  }

  function refuse(name: string, caller: CallerInfo): ToolError {
    const entry = registry.get(name);
    const hidden = entry === undefined ? undefined : whyToolHidden(entry.tool, caller, attachedIds());
    if (entry !== undefined && hidden?.kind === "resources") {
      return new ToolError({
        code: "unavailable",
        message: `Tool \`${name}\` needs ${hidden.missing.map((key) => `\`${key.id}\` (${key.description})`).join(", ")}, which this run does not have attached. Use another tool, or ask the host to attach it.`,
      });
    }
    const visible = run.visibleTools(caller).map((tool) => tool.name);
    return new ToolError({
      code: "unknown_tool",
      message: `Unknown tool \`${name}\` for caller \`${caller.name}\`. Tools you can call: ${visible.length > 0 ? visible.join(", ") : "(none)"}.`,
    });
  }

  async function approve(request: ApprovalRequest, signal: AbortSignal): Promise<void> {
    const decision = await approvalPolicy(request);
    if (decision === "allow") return;
    const denied = new ToolError({ code: "denied", message: `Calling \`${request.tool.name}\` was denied. Do not retry the same call; choose another approach or ask the user.` });
    if (decision === "deny") throw denied;
    const asked = approver;
    if (asked === undefined) {
      throw new ToolError({
        code: "denied",
        message: `Calling \`${request.tool.name}\` needs approval, and no approver is connected to this run, so it was denied. Continue without it or ask the user to run it.`,
      });
    }
    const label = `The approval of \`${request.tool.name}\``;
    if (!(await withBudget((approvalSignal) => asked.approve(request, approvalSignal), { timeoutMs: approvalTimeoutMs, signal, label }).result)) throw denied;
  }

  /** Run one call; `result` answers the caller, `settled` tells when the tool itself has stopped. */
  function execute(tool: AnyTool, input: unknown, scope: CallScope): { result: Promise<ToolResult>; settled: Promise<void> } {
    const { caller, signal } = scope;
    const written: string[] = [];
    const label = `Tool \`${tool.name}\``;
    const budget = withBudget(
      async (callSignal) => {
        const context: ToolContext<AnyResourceKey> = {
          resource: resourceGetter(label, tool.requires),
          signal: callSignal,
          run: { id: runId, caller },
          callTool: (name, nested) => dispatch(name, nested, { ...scope, signal: callSignal, chain: [...scope.chain, tool.name] }),
          wrote: (paths) => void written.push(...paths),
          progress: (update) => {
            settings.onProgress?.({ runId, tool: tool.name, update });
            scope.onProgress?.(update);
          },
        };
        const output = await tool.run(input, context);
        const result = toToolResult(output);
        if (!isWellFormedResult(result)) {
          throw new ToolError({ code: "internal", message: `${label} returned a malformed result (expected text or { content: [...] }). This is a bug in the tool.` });
        }
        return result;
      },
      { timeoutMs: tool.timeoutMs ?? defaultTimeoutMs, signal, label },
    );
    const tracked = budget.settled;
    inFlight.add(tracked);
    void tracked.then(() => inFlight.delete(tracked));
    const result = (async (): Promise<ToolResult> => {
      let answer: ToolResult;
      try {
        answer = await budget.result;
      } catch (error) {
        answer = errorResult(error, tool.name);
      }
      if (written.length === 0) return answer;
      const appended = await runWriteObservers(observers, [...new Set(written)], {
        attachedIds: attachedIds(),
        resourceGetter,
        run: { id: runId, caller },
        signal,
        timeoutMs: observerTimeoutMs,
      });
      return appended.length > 0 ? { ...answer, content: [...answer.content, ...appended] } : answer;
    })();
    return { result, settled: budget.settled };
  }

  /**
   * Run a call of a tool that is not parallel-safe: the caller is answered as soon as the call ends
   * or times out, but the next call of that tool starts only once this one has really stopped (or a
   * grace period passed), so a timed-out call that ignores its signal cannot overlap the next one.
   */
  function executeSerially(tool: AnyTool, input: unknown, scope: CallScope): Promise<ToolResult> {
    return new Promise((resolve) => {
      void serial.run(tool.name, async () => {
        const call = execute(tool, input, scope);
        resolve(await call.result);
        await Promise.race([call.settled, new Promise((done) => setTimeout(done, settleGraceMs).unref())]);
      });
    });
  }

  async function dispatch(name: string, rawInput: unknown, scope: CallScope): Promise<ToolResult> {
    const { caller, chain } = scope;
    try {
      if (closing.signal.aborted) {
        throw new ToolError({ code: "unavailable", message: `Run \`${runId}\` is closed; tool \`${name}\` cannot be called.` });
      }
      const entry = registry.get(name);
      if (entry === undefined || whyToolHidden(entry.tool, caller, attachedIds()) !== undefined) throw refuse(name, caller);
      const { tool } = entry;
      if (!tool.parallelSafe && chain.includes(tool.name)) {
        throw new ToolError({ code: "invalid_input", message: `Tool \`${tool.name}\` cannot call itself through \`callTool\`: its calls run one at a time, so the nested call would wait forever.` });
      }
      const input = parseToolInput(tool, rawInput);
      const callSignal = AbortSignal.any([scope.signal, closing.signal]);
      await approve({ tool, input, caller, runId }, callSignal);
      const callScope = { ...scope, signal: callSignal };
      const result = tool.parallelSafe ? await execute(tool, input, callScope).result : await executeSerially(tool, input, callScope);
      return capOutput(result, outputLimitBytes);
    } catch (error) {
      return errorResult(error, name);
    }
  }

  const run: Run = {
    id: runId,
    caller: defaultCaller,
    tools: [...registry.values()].map((entry) => entry.tool),
    plugins: settings.plugins,
    async attach(key, instance) {
      if (closing.signal.aborted) {
        throw new ToolError({ code: "unavailable", message: `Run \`${runId}\` is closed; resource \`${key.id}\` cannot be attached.` });
      }
      const previous = attached.get(key.id);
      attached.set(key.id, { key, instance: instance as ResourceInstance<unknown> });
      if (previous !== undefined && previous.instance !== instance) await disposeQuietly(previous);
      notify();
    },
    async detach(key) {
      const previous = attached.get(key.id);
      if (previous === undefined) return;
      attached.delete(key.id);
      notify();
      await disposeQuietly(previous);
    },
    isAttached: (key) => attached.has(key.id),
    resource: <T>(key: ResourceKey<T>) => attached.get(key.id)?.instance.value as T | undefined,
    async describeResource(key) {
      const resource = attached.get(key.id);
      try {
        return await resource?.instance.describe?.();
      } catch (error) {
        return `could not describe itself: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    visibleTools(caller = defaultCaller) {
      const ids = attachedIds();
      return run.tools.filter((tool) => whyToolHidden(tool, caller, ids) === undefined);
    },
    toolStatus(caller = defaultCaller) {
      const ids = attachedIds();
      return [...registry.values()].map(({ tool, plugin }) => {
        const hidden = whyToolHidden(tool, caller, ids);
        return hidden === undefined ? { tool, plugin, registered: true } : { tool, plugin, registered: false, hidden };
      });
    },
    call(name, input, options = {}) {
      return dispatch(name, input, {
        caller: options.caller ?? defaultCaller,
        signal: options.signal ?? new AbortController().signal,
        chain: [],
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    },
    setApprover(next) {
      approver = next;
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      if (closing.signal.aborted) return;
      closing.abort(new ToolError({ code: "cancelled", message: `Run \`${runId}\` closed.` }));
      // Give aborted tools a moment to release what they hold before their resources are disposed.
      await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, settleGraceMs).unref())]);
      const resources = [...attached.values()];
      attached.clear();
      await Promise.all(resources.map(disposeQuietly));
      notify();
    },
  };
  return run;
}
