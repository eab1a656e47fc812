import { randomUUID } from "node:crypto";
import {
  errorResult,
  parseToolInput,
  tierAllows,
  ToolError,
  whyToolHidden,
  type AnyResourceKey,
  type AnyTool,
  type CallerInfo,
  type Plugin,
  type ProgressUpdate,
  type ResourceInstance,
  type ResourceKey,
  type ToolHiddenReason,
  type ToolResult,
  type WriteObserver,
} from "@runbound/tool-kit";
import { allowAll, type ApprovalPolicy, type Approver } from "./approval.js";
import { approveCall } from "./approve-call.js";
import { DEFAULT_HEARTBEAT, type HeartbeatTiming } from "./call-heartbeat.js";
import { MAIN_CALLER } from "./callers.js";
import { capOutput, DEFAULT_OUTPUT_LIMIT_BYTES } from "./cap-output.js";
import { collectTools } from "./collect-tools.js";
import { executeCall, type CallScope, type ExecutionContext } from "./execute-call.js";
import { executeSerially } from "./execute-serially.js";
import { createResourceTable } from "./resource-table.js";
import { SerialQueue } from "./serial-queue.js";
import { withBudget } from "@runbound/runtime-kit";

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
  /**
   * A long call's heartbeat: after `firstAfterMs` (default 2 000) of silence, and then at least every
   * `everyMs` (default 5 000), it repeats the call's last progress notice with the time elapsed, so a
   * client whose timeout resets on progress does not give up on it; `false` turns it off.
   */
  heartbeat?: Partial<HeartbeatTiming> | false;
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

/** Options of {@link Run.approve}. */
export interface ApproveOptions {
  /** On whose behalf the call would run (an approval card names it); default the run's caller. */
  caller?: CallerInfo;
  /** Withdraws the question. */
  signal?: AbortSignal;
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
  /**
   * Record why a resource is not attached (its provider failed, the host leaves it off), or clear it
   * with undefined: a call to a tool that needs it then says why, not only that it is missing.
   * Attaching the resource clears it.
   */
  noteUnattached(key: AnyResourceKey, why: string | undefined): void;
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
  /**
   * Decide a call that runs elsewhere on this run's behalf (a worker's run) as if it were called
   * here: this run's policy, then its approver. Resolves when it may run; otherwise throws `denied`
   * (also for a tool this run does not have, or one above `caller`'s ceiling), `timeout` or `cancelled`.
   */
  approve(name: string, input: unknown, options?: ApproveOptions): Promise<void>;
  /** Called whenever the visible tool set may have changed (a resource attached or detached). */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Calls whose tool has not stopped yet, answered or not: a call that timed out or was cancelled
   * stays counted until its tool really returns (a tool that ignores its signal, or native work that
   * cannot be interrupted, stays counted). A host about to exit can tell from it whether a normal exit
   * would wait for such work.
   */
  readonly activeCalls: number;
  /**
   * Abort running calls, wait up to the grace for them to stop, then dispose every resource (each
   * dispose within the grace too) and refuse later calls. Idempotent: a later call returns the first
   * one's promise (and its grace).
   */
  close(options?: CloseOptions): Promise<void>;
}

/** Options of {@link Run.close}. */
export interface CloseOptions {
  /**
   * Milliseconds to wait for aborted calls to stop, and then for each resource's `dispose`, before
   * moving on without them; default 5 000. A host that must exit now (its client is gone) passes a
   * short grace, e.g. 250, and checks {@link Run.activeCalls} afterwards.
   */
  graceMs?: number;
}

// How long a stopped call may take to release what it holds before the run moves on without it.
const settleGraceMs = 5_000;

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
  const approvalTimeoutMs = settings.approvalTimeoutMs ?? 300_000;
  const outputLimitBytes = settings.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES;
  let approver = settings.approver;
  const unattachedReasons = new Map<string, string>();
  const listeners = new Set<() => void>();
  const resources = createResourceTable(() => {
    for (const listener of listeners) listener();
  });
  const serial = new SerialQueue();
  const closing = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let closed: Promise<void> | undefined;

  const execution: ExecutionContext = {
    runId,
    resources,
    observers,
    defaultTimeoutMs: settings.defaultTimeoutMs ?? 120_000,
    observerTimeoutMs: settings.observerTimeoutMs ?? 15_000,
    heartbeat: settings.heartbeat === false ? false : { ...DEFAULT_HEARTBEAT, ...settings.heartbeat },
    onProgress: settings.onProgress,
    dispatch,
  };

  function refuse(name: string, caller: CallerInfo): ToolError {
    const entry = registry.get(name);
    const hidden = entry === undefined ? undefined : whyToolHidden(entry.tool, caller, resources.ids());
    if (hidden?.kind === "resources") {
      // Resources left off for one reason (vibe mode's two) are named together.
      const byReason = new Map<string, string[]>();
      for (const key of hidden.missing) {
        const why = unattachedReasons.get(key.id);
        if (why !== undefined) byReason.set(why, [...(byReason.get(why) ?? []), `\`${key.id}\``]);
      }
      const reasons = [...byReason].map(
        ([why, ids]) =>
          `${ids.join(" and ")} ${ids.length > 1 ? "are" : "is"} not attached because ${why.replace(/[.\s]+$/, "")}.`,
      );
      return new ToolError({
        code: "unavailable",
        message:
          `Tool \`${name}\` needs ${hidden.missing.map((key) => `\`${key.id}\` (${key.description})`).join(", ")}, which this run does not have attached. ` +
          (reasons.length > 0 ? `${reasons.join(" ")} ` : "") +
          "Use another tool, or ask the host to attach it.",
      });
    }
    const visible = run.visibleTools(caller).map((tool) => tool.name);
    return new ToolError({
      code: "unknown_tool",
      message: `Unknown tool \`${name}\` for caller \`${caller.name}\`. Tools you can call: ${visible.length > 0 ? visible.join(", ") : "(none)"}.`,
    });
  }

  function start(tool: AnyTool, input: unknown, scope: CallScope) {
    const call = executeCall(tool, input, scope, execution);
    inFlight.add(call.settled);
    void call.settled.then(() => inFlight.delete(call.settled));
    return call;
  }

  async function dispatch(name: string, rawInput: unknown, scope: CallScope): Promise<ToolResult> {
    const { caller, chain } = scope;
    try {
      if (closing.signal.aborted) {
        throw new ToolError({
          code: "unavailable",
          message: `Run \`${runId}\` is closed; tool \`${name}\` cannot be called.`,
        });
      }
      const entry = registry.get(name);
      if (entry === undefined || whyToolHidden(entry.tool, caller, resources.ids()) !== undefined)
        throw refuse(name, caller);
      const { tool } = entry;
      if (!tool.parallelSafe && chain.includes(tool.name)) {
        throw new ToolError({
          code: "invalid_input",
          message: `Tool \`${tool.name}\` cannot call itself through \`callTool\`: its calls run one at a time, so the nested call would wait forever.`,
        });
      }
      const input = parseToolInput(tool, rawInput);
      const callSignal = AbortSignal.any([scope.signal, closing.signal]);
      await approveCall(
        { tool, input, caller, runId },
        { policy: approvalPolicy, approver, timeoutMs: approvalTimeoutMs },
        callSignal,
      );
      const callScope = { ...scope, signal: callSignal };
      const result = tool.parallelSafe
        ? await start(tool, input, callScope).result
        : await executeSerially(serial, tool.name, () => start(tool, input, callScope), {
            graceMs: settleGraceMs,
            signal: closing.signal,
          });
      return capOutput(result, outputLimitBytes);
    } catch (error) {
      // Refusals quote what the caller sent (a tool name, a field), so they are bounded like any answer.
      return capOutput(errorResult(error, name), outputLimitBytes);
    }
  }

  const run: Run = {
    id: runId,
    caller: defaultCaller,
    tools: [...registry.values()].map((entry) => entry.tool),
    plugins: settings.plugins,
    async attach(key, instance) {
      if (closing.signal.aborted) {
        throw new ToolError({
          code: "unavailable",
          message: `Run \`${runId}\` is closed; resource \`${key.id}\` cannot be attached.`,
        });
      }
      await resources.attach(key, instance, settleGraceMs);
      unattachedReasons.delete(key.id);
    },
    noteUnattached(key, why) {
      if (why === undefined) unattachedReasons.delete(key.id);
      else unattachedReasons.set(key.id, why);
    },
    detach: (key) => resources.detach(key, settleGraceMs),
    isAttached: (key) => resources.has(key),
    resource: (key) => resources.value(key),
    describeResource: (key) => resources.describe(key),
    visibleTools(caller = defaultCaller) {
      const ids = resources.ids();
      return run.tools.filter((tool) => whyToolHidden(tool, caller, ids) === undefined);
    },
    toolStatus(caller = defaultCaller) {
      const ids = resources.ids();
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
    async approve(name, input, options = {}) {
      const caller = options.caller ?? defaultCaller;
      const tool = registry.get(name)?.tool;
      if (tool === undefined || !tierAllows(caller.ceiling, tool.tier)) {
        const why =
          tool === undefined
            ? `run \`${runId}\` has no tool \`${name}\``
            : `\`${name}\` is a ${tool.tier} tool and ${caller.name} may use ${caller.ceiling} tools at most`;
        throw new ToolError({
          code: "denied",
          message: `Calling \`${name}\` cannot be approved here: ${why}, so it was denied. Do not retry; report that this step needs \`${name}\`.`,
        });
      }
      const signal = AbortSignal.any([options.signal ?? new AbortController().signal, closing.signal]);
      await approveCall(
        { tool, input, caller, runId },
        { policy: approvalPolicy, approver, timeoutMs: approvalTimeoutMs },
        signal,
      );
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get activeCalls() {
      return inFlight.size;
    },
    close(options = {}) {
      closed ??= (async () => {
        const graceMs = options.graceMs ?? settleGraceMs;
        closing.abort(new ToolError({ code: "cancelled", message: `Run \`${runId}\` closed.` }));
        // Give aborted tools a moment to release what they hold before their resources are disposed.
        const stopped = Promise.all(inFlight);
        await withBudget(() => stopped, {
          timeoutMs: graceMs,
          signal: new AbortController().signal,
          label: `Closing run \`${runId}\``,
        }).result.catch(() => undefined);
        await resources.disposeAll(graceMs);
      })();
      return closed;
    },
  };
  return run;
}
