import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { displayPath, hostPlacement, listDescendants, type Placement } from "@runbound/runtime-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterDefinition, LaunchOptions, LocatedAdapter } from "./adapter-table.js";
import { AdapterStartFailed, connectAdapter, type AdapterConnection } from "./adapter-connection.js";
import { DapNoAnswer, DapRequestFailed, type EventWait } from "./dap-connection.js";
import { withoutDebuggerChatter } from "./debugger-chatter.js";
import { killGroupsNow, killProcesses } from "./kill-processes.js";
import { createLaunchSetupCache, type LaunchSetupCache } from "./launch-setup-cache.js";
import { OutputBuffer } from "./output-buffer.js";
import { sandboxNeeds } from "./adapter-sandbox-needs.js";

/** Where a session is in its life. */
export type SessionState = "running" | "stopped" | "exited" | "crashed" | "ended";

/** The last `stopped` event. */
export interface StopEvent {
  reason: string;
  threadId?: number;
  description?: string;
  text?: string;
}

/** One requested breakpoint line and what the adapter made of it. */
export interface BreakpointRow {
  /** The line asked for. */
  requested: number;
  /** Stop only when this expression is true. */
  condition?: string;
  /** Stop only when the hit count satisfies this (debugpy `>5`, `%2`; lldb and dlv a number or `>= 5`). */
  hitCondition?: string;
  /** A logpoint: log this text (with `{expression}`s) instead of stopping. */
  logMessage?: string;
  /** The line the adapter bound it to (debugpy moves a breakpoint on a non-code line silently). */
  bound?: number;
  /** Whether the adapter verified it; undefined while queued before a launch. */
  verified?: boolean;
  /** The adapter's message (why it is not verified). */
  message?: string;
  /** The adapter's id, to follow `breakpoint` events. */
  id?: number;
}

/** One function breakpoint and what the adapter made of it. */
export interface FunctionBreakpointRow {
  /** The function name asked for. */
  name: string;
  /** Whether the adapter verified it; undefined while queued before a launch. */
  verified?: boolean;
  /** Where the adapter bound it. */
  file?: string;
  line?: number;
  /** The adapter's message (why it is not verified). */
  message?: string;
  /** The adapter's id, to follow `breakpoint` events. */
  id?: number;
}

/** What the adapter made of the exception filters: the ones it took, the ones it does not know. */
export interface ExceptionFiltersAnswer {
  /** Filters sent, with the adapter's verdict when it answered one per filter. */
  accepted: Array<{ filter: string; verified?: boolean; message?: string }>;
  /** Filters the adapter does not list in `exceptionBreakpointFilters`: not sent. */
  unknown: string[];
  /** The filters the adapter offers. */
  offered: DebugProtocol.ExceptionBreakpointsFilter[];
}

/** How an execution request (launch, continue, step, pause) ended within its budget. */
export type ExecutionOutcome =
  | { kind: "stopped"; stop: StopEvent }
  | { kind: "exited"; exitCode?: number }
  | { kind: "running" }
  | { kind: "crashed"; detail: string };

/**
 * A launch that failed: `program` when the adapter refused it or the program died before it could stop
 * (the caller's to fix); `adapter` when the adapter itself ended or did not answer within a budget
 * (the message names its exit code or signal, or the budget).
 */
export class LaunchFailed extends Error {
  constructor(
    readonly adapterMessage: string,
    readonly outputTail: string,
    readonly fault: "program" | "adapter",
  ) {
    super(adapterMessage);
    this.name = "LaunchFailed";
  }
}

/** Settings of {@link DebugSession.launch}. */
export interface DebugSessionSettings extends LaunchOptions {
  adapter: AdapterDefinition;
  located: LocatedAdapter;
  /** `attach` to a debuggee listening on this loopback port instead of launching `program`. */
  attachPort?: number;
  /** The program (absolute), or for an attach the address shown in answers. */
  program: string;
  args: readonly string[];
  isDirectory: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The project root (the marker's folder). */
  root: string;
  /** Where the adapter and the program run; default the host. An attach always runs its adapter on the host: the program is already running there. */
  placement?: Placement;
  /** Breakpoints to set during the handshake: absolute file → lines with their conditions. */
  breakpoints: ReadonlyMap<string, readonly DebugProtocol.SourceBreakpoint[]>;
  /** Function breakpoints to set during the handshake. */
  functionBreakpoints?: readonly string[];
  /** Exception filters to set during the handshake; default the adapter's defaults. */
  exceptionFilters?: readonly string[];
  /** Budget for each DAP request. */
  requestTimeoutMs: number;
  /** Budget for the handshake up to the launch response (a Go build runs inside it). */
  handshakeTimeoutMs: number;
  /** How long an execution request waits for a stop before answering "still running". */
  stopBudgetMs: number;
  /** Characters of program output kept. */
  outputCapacity: number;
  /** Progress lines for the caller (a Go build). */
  onProgress(message: string): void;
  /** Called as soon as the adapter runs, before the handshake: a supervisor disposed meanwhile kills the session through it. */
  onStarted?(session: DebugSession): void;
  /** What launch setups learnt, kept by the supervisor across its sessions; default a fresh one (nothing kept). */
  setupCache?: LaunchSetupCache;
}

const endEvents = new Set(["stopped", "terminated", "exited"]);

/** One debug session: an adapter process, its DAP connection, the debuggee, their state. */
export class DebugSession {
  state: SessionState = "running";
  lastStop: StopEvent | undefined;
  exitCode: number | undefined;
  readonly breakpoints = new Map<string, BreakpointRow[]>();
  functionBreakpoints: FunctionBreakpointRow[] = [];
  exceptionFilters: ExceptionFiltersAnswer | undefined;
  capabilities: DebugProtocol.Capabilities = {};
  crashDetail: string | undefined;
  private readonly debuggeePids = new Set<number>();
  private ending: Promise<void> | undefined;
  // The first read of the debuggee's pids from the process table, started during the handshake.
  private recording: Promise<void> = Promise.resolve();

  private constructor(
    readonly settings: DebugSessionSettings,
    private readonly adapter: AdapterConnection,
    readonly output: OutputBuffer,
    readonly startedAt: number,
    private readonly extraArguments: Record<string, unknown>,
    // A folder of the session's own (a Go build's binary, a sandboxed dial-in adapter's socket), removed at its end.
    private readonly sessionDirectory: string,
    // In a sandbox the `process` event's pid is one of the sandbox's PID namespace, not a pid here.
    private readonly sandboxed: boolean,
  ) {}

  /** What the session debugs, for answers: the program relative to the workdir, or the attached port. */
  target(workdir: string): string {
    if (this.settings.attachPort !== undefined) return `port ${this.settings.attachPort}`;
    if (this.settings.mode === "test")
      return `tests of ${displayPath(workdir, this.settings.program)}${this.settings.test === undefined ? "" : ` matching ${this.settings.test}`}`;
    if (this.settings.module !== undefined) return `-m ${this.settings.module}`;
    return displayPath(workdir, this.settings.program);
  }

  /** The adapter's process id; undefined when the session talks to a debuggee's own endpoint. */
  get adapterPid(): number | undefined {
    return this.adapter.process?.pid;
  }

  /** Every process id this session knows of: the adapter and the debuggee's processes seen so far. */
  knownPids(): number[] {
    return [...(this.adapter.process === undefined ? [] : [this.adapter.process.pid]), ...this.debuggeePids];
  }

  /**
   * Start the adapter and run VS Code's handshake: initialize; launch sent and NOT awaited (debugpy,
   * dart and lldb-dap ≥ 21 answer it only after configurationDone); breakpoints and
   * configurationDone on `initialized`; then the launch response and the first stop, within budgets.
   *
   * @throws {@link LaunchFailed} with the adapter's message and the program's output tail;
   * {@link AdapterStartFailed} when the adapter itself cannot start.
   */
  static async launch(
    settings: DebugSessionSettings,
    now: number,
  ): Promise<{ session: DebugSession; outcome: ExecutionOutcome }> {
    // Created before the adapter: a dial-in adapter's own stdout (dlv 1.20's program output) starts at once.
    const output = new OutputBuffer(settings.outputCapacity);
    // Settled before the adapter starts: an adapter alive before its session exists is one a dispose
    // in between could not reach (lldb's setup asks rustc, which may take seconds).
    const cache = settings.setupCache ?? createLaunchSetupCache();
    const setup = (await settings.adapter.launchSetup?.(settings.cwd, settings.env, cache)) ?? {};
    const placement = settings.attachPort === undefined ? (settings.placement ?? hostPlacement) : hostPlacement;
    const sessionDirectory = await realpath(await mkdtemp(join(tmpdir(), "runbound-debug-")));
    let adapter: AdapterConnection;
    let located = settings.located;
    try {
      if (settings.attachPort === undefined)
        located = (await settings.adapter.startedAs?.(located, settings.root)) ?? located;
      const needs =
        placement.kind === "sandbox"
          ? await sandboxNeeds(settings.adapter, located, { root: settings.root, env: settings.env, cache })
          : undefined;
      adapter = await connectAdapter({
        transport: settings.adapter.transport,
        ...(settings.attachPort !== undefined && settings.adapter.attachConnectsDirectly === true
          ? { connectPort: settings.attachPort }
          : {}),
        command: located.command,
        args: located.args,
        cwd: settings.cwd,
        env: { ...settings.env, ...needs?.env },
        placement,
        ...(needs === undefined
          ? {}
          : {
              readOnlyPaths: needs.readOnlyPaths,
              writablePaths: [...needs.writablePaths, sessionDirectory],
              ownEnv: Object.keys(needs.env),
            }),
        sessionDirectory,
        connectTimeoutMs: settings.handshakeTimeoutMs,
        // dlv 1.20 writes the program's output to its own stdout, after its banner.
        onAdapterStdout: (text) => output.push("stdout", withoutDebuggerChatter(text)),
      });
    } catch (error) {
      await rm(sessionDirectory, { recursive: true, force: true });
      throw error;
    }
    const session = new DebugSession(
      { ...settings, located },
      adapter,
      output,
      now,
      setup,
      sessionDirectory,
      placement.kind === "sandbox",
    );
    settings.onStarted?.(session);
    try {
      const outcome = await session.handshake();
      return { session, outcome };
    } catch (error) {
      await session.end();
      throw error;
    }
  }

  private async handshake(): Promise<ExecutionOutcome> {
    const { connection } = this.adapter;
    const settings = this.settings;
    this.follow();
    // Registered before `initialize` is sent: the Dart adapter (and lldb-dap ≥ 21) sends `initialized`
    // right behind the initialize response, often in the same chunk, before an await resumes.
    const first = connection.waitForEvent(
      (event) => endEvents.has(event.event),
      settings.handshakeTimeoutMs * 2 + settings.stopBudgetMs,
    );
    const initialized = connection.waitForEvent(
      (event) => event.event === "initialized",
      settings.handshakeTimeoutMs * 2,
    );
    const initialize = await this.request<DebugProtocol.InitializeResponse>(
      "initialize",
      {
        clientID: "runbound",
        clientName: "runbound",
        adapterID: settings.adapter.dapAdapterId,
        linesStartAt1: true,
        columnsStartAt1: true,
        pathFormat: "path",
        supportsVariableType: true,
        supportsRunInTerminalRequest: false,
        locale: "en",
      },
      settings.handshakeTimeoutMs,
    ).catch(async (error: unknown) => {
      throw await this.launchError(error);
    });
    this.capabilities = initialize.body ?? {};
    if (settings.adapter.builds(settings)) settings.onProgress(`Building ${settings.program} (go build through dlv)…`);
    // An attach runs the same handshake: debugpy answers it only after configurationDone too (debugpy#439).
    const launch =
      settings.attachPort !== undefined && settings.adapter.attachArguments !== undefined
        ? this.request(
            "attach",
            { ...settings.adapter.attachArguments(settings.attachPort, settings.cwd), ...this.extraArguments },
            settings.handshakeTimeoutMs,
          )
        : this.request(
            "launch",
            {
              ...settings.adapter.launchArguments(
                { ...settings, buildOutput: join(this.sessionDirectory, "__debug_bin") },
                settings.located,
              ),
              ...this.extraArguments,
            },
            settings.handshakeTimeoutMs,
          );
    // Observed here so a refusal that comes before `initialized` is not an unhandled rejection.
    const launchFailure = launch.then(
      () => undefined,
      (error: unknown) => error,
    );
    // The debuggee runs once the launch is answered (lldb and dlv answer with `initialized`, debugpy
    // and dart after configurationDone): its pids are read from the process table then, meanwhile,
    // off the path to the first stop (a read takes 30–60 ms on a busy machine).
    this.recording = launchFailure
      .then((error) => (error === undefined ? this.recordDebuggee() : undefined))
      .catch(() => undefined);
    // A launch answered first (lldb-vscode-16, dlv answer it with or before `initialized`) is not a
    // failure: keep waiting for `initialized` then.
    type Ready = EventWait | { kind: "launch-failed"; error: unknown };
    const refused = launchFailure.then((error): Ready | Promise<Ready> =>
      error === undefined ? initialized : { kind: "launch-failed", error },
    );
    const ready = await Promise.race<Ready>([initialized, refused]);
    if (ready.kind === "launch-failed") throw await this.launchError(ready.error);
    if (ready.kind !== "event") {
      throw await this.launchError(
        new Error(
          ready.kind === "timeout"
            ? `The debug adapter did not send \`initialized\` within ${settings.handshakeTimeoutMs * 2} ms.`
            : (this.crashDetail ?? "The debug adapter closed the connection during the launch."),
        ),
      );
    }
    if (settings.adapter.builds(settings)) settings.onProgress("Build done; starting the program.");
    // The filters asked for, else the adapter's defaults (debugpy: uncaught; dlv: unrecovered panics),
    // so a crash stops where it happens.
    const filters =
      settings.exceptionFilters ??
      (this.capabilities.exceptionBreakpointFilters ?? [])
        .filter((filter) => filter.default === true)
        .map((filter) => filter.filter);
    const functions = settings.functionBreakpoints ?? [];
    // Sent together and awaited together, as VS Code does: each is a round trip of ~45 ms to debugpy.
    await Promise.all([
      ...[...settings.breakpoints].map(([file, points]) => this.setBreakpoints(file, points).catch(() => undefined)),
      ...(functions.length > 0 ? [this.setFunctionBreakpoints(functions).catch(() => undefined)] : []),
      this.setExceptionFilters(filters).catch(() => undefined),
    ]);
    if (this.capabilities.supportsConfigurationDoneRequest === true) {
      await this.request("configurationDone", {}, settings.requestTimeoutMs).catch(async (error: unknown) => {
        throw await this.launchError(error);
      });
    }
    const launchError = await launchFailure;
    if (launchError !== undefined) throw await this.launchError(launchError);
    // `first` was registered before the launch so no stop is missed; from here the program gets the
    // stop budget, like any execution request.
    const outcome = await this.outcomeOf(
      Promise.race([first, connection.waitForEvent(() => false, settings.stopBudgetMs)]),
    );
    if (outcome.kind === "exited" && outcome.exitCode !== undefined && outcome.exitCode !== 0) {
      throw new LaunchFailed(
        `The program exited with code ${outcome.exitCode} before it stopped.`,
        this.output.tail(2_048).text,
        "program",
      );
    }
    if (outcome.kind === "crashed") throw await this.launchError(new Error(outcome.detail));
    return outcome;
  }

  /**
   * Why the launch failed: the adapter's refusal is the program's fault; anything else (a request
   * left unanswered, a closed connection) is the adapter's, described by its exit when it ended.
   */
  private async launchError(error: unknown): Promise<LaunchFailed> {
    // Output events (a runpy traceback, the compiler's text from dlv) can trail the failure a little.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const tail = this.output.tail(2_048).text;
    const stderr = (this.adapter.process?.stderrTail() ?? []).slice(-10).join("\n");
    const outputTail = [tail, stderr.length > 0 && !tail.includes(stderr) ? `[adapter stderr] ${stderr}` : ""]
      .filter((part) => part.length > 0)
      .join("\n");
    if (error instanceof DapRequestFailed) return new LaunchFailed(error.adapterMessage, outputTail, "program");
    return new LaunchFailed(await this.adapterFailure(error), outputTail, "adapter");
  }

  // A closed connection means the adapter ended: its exit (code or signal) is the cause, not the
  // request that found the pipe closed. The exit can trail the close by a moment, so wait briefly.
  private async adapterFailure(error: unknown): Promise<string> {
    const message = error instanceof Error ? error.message : String(error);
    const ended = this.adapter.connection.closed || (error instanceof DapNoAnswer && error.why === "closed");
    const exit = ended ? await this.adapter.process?.waitForExit(1_000) : this.adapter.process?.exited();
    if (exit === undefined) return message;
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return `The debug adapter \`${this.settings.located.command}\` ${how} during the launch${ended ? "" : ` (${message})`}.`;
  }

  // Keeps the state in step with the adapter's events for the whole session.
  private follow(): void {
    const { connection } = this.adapter;
    connection.onEvent((event) => {
      const body = (event.body ?? {}) as Record<string, unknown>;
      switch (event.event) {
        case "stopped":
          this.state = "stopped";
          this.lastStop = {
            reason: String(body["reason"] ?? "unknown"),
            ...(typeof body["threadId"] === "number" ? { threadId: body["threadId"] } : {}),
            ...(typeof body["description"] === "string" ? { description: body["description"] } : {}),
            ...(typeof body["text"] === "string" ? { text: body["text"] } : {}),
          };
          break;
        case "continued":
          if (this.state === "stopped") this.state = "running";
          break;
        case "exited":
          this.exitCode = typeof body["exitCode"] === "number" ? body["exitCode"] : this.exitCode;
          this.state = "exited";
          break;
        case "terminated":
          this.state = "exited";
          break;
        case "process":
          // An attached program is not ours to kill (a disconnect that killed it: aspnetcore-debugger-mcp#35).
          if (typeof body["systemProcessId"] === "number" && this.settings.attachPort === undefined && !this.sandboxed)
            this.debuggeePids.add(body["systemProcessId"]);
          break;
        case "output":
          // debugpy's telemetry events are not program output, nor lldb's echo of its init commands.
          if (body["category"] !== "telemetry" && typeof body["output"] === "string")
            this.output.push(String(body["category"] ?? "console"), withoutDebuggerChatter(body["output"]));
          break;
        case "breakpoint":
          this.updateBreakpoint(body["breakpoint"] as DebugProtocol.Breakpoint | undefined);
          break;
      }
    });
    connection.onClose(() => {
      if (this.ending === undefined && this.state !== "exited") {
        this.state = "crashed";
        const exit = this.adapter.process?.exited();
        const stderr = this.adapter.process?.stderrTail() ?? [];
        this.crashDetail = `The debug adapter \`${this.settings.attachPort === undefined ? this.settings.located.command : `port ${this.settings.attachPort}`}\` ended unexpectedly${exit === undefined ? "" : ` (${exit.signal ?? `exit code ${exit.code}`})`}.${stderr.length > 0 ? ` Its last stderr lines: ${stderr.slice(-5).join(" | ")}` : ""}`;
        // The debuggee survives its adapter under lldb and dlv (their own session/group): kill it now.
        void this.end();
      }
    });
    void this.adapter.process?.exit.then(() => this.adapter.connection.close());
  }

  private updateBreakpoint(breakpoint: DebugProtocol.Breakpoint | undefined): void {
    if (breakpoint?.id === undefined) return;
    for (const row of this.functionBreakpoints) {
      if (row.id !== breakpoint.id) continue;
      row.verified = breakpoint.verified;
      if (breakpoint.line !== undefined) row.line = breakpoint.line;
      if (breakpoint.source?.path !== undefined) row.file = breakpoint.source.path;
      if (breakpoint.message !== undefined) row.message = breakpoint.message;
    }
    for (const rows of this.breakpoints.values()) {
      for (const row of rows) {
        if (row.id !== breakpoint.id) continue;
        row.verified = breakpoint.verified;
        if (breakpoint.line !== undefined) row.bound = breakpoint.line;
        if (breakpoint.message !== undefined) row.message = breakpoint.message;
      }
    }
  }

  // The debuggee's pids: the `process` event's (lldb, debugpy) and the adapter's descendants now (dlv
  // 1.20 sends no `process` event). Recorded early, because after an adapter crash they are
  // re-parented to pid 1 and no longer below it.
  private async recordDebuggee(): Promise<void> {
    if (this.adapter.process === undefined) return;
    for (const row of await listDescendants(this.adapter.process.pid)) this.debuggeePids.add(row.pid);
  }

  /** Send one request with the session's budget. */
  async request<R extends DebugProtocol.Response = DebugProtocol.Response>(
    command: string,
    args: unknown,
    timeoutMs = this.settings.requestTimeoutMs,
  ): Promise<R> {
    return (await this.adapter.connection.request(command, args, timeoutMs)) as R;
  }

  /**
   * Set the breakpoints of one file (an empty list clears them) and record what the adapter answered.
   * A condition, hit condition or log message the adapter does not support is not sent: its row says so.
   */
  async setBreakpoints(file: string, points: readonly DebugProtocol.SourceBreakpoint[]): Promise<BreakpointRow[]> {
    const refusals = points.map((point) => unsupportedPointFeatures(point, this.capabilities));
    const sent = points.map((point, index) => (refusals[index]!.length > 0 ? { line: point.line } : point));
    const response = await this.request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
      source: { path: file },
      breakpoints: sent,
      lines: sent.map((point) => point.line),
    });
    const answered = response.body?.breakpoints ?? [];
    const rows = points.map((point, index): BreakpointRow => {
      const breakpoint = answered[index];
      const refused = refusals[index]!;
      const message = [
        refused.length > 0
          ? `${this.settings.adapter.id} does not support ${refused.join(", ")}; set as a plain breakpoint`
          : "",
        breakpoint?.message ?? "",
      ]
        .filter((part) => part.length > 0)
        .join("; ");
      return {
        requested: point.line,
        ...(point.condition === undefined ? {} : { condition: point.condition }),
        ...(point.hitCondition === undefined ? {} : { hitCondition: point.hitCondition }),
        ...(point.logMessage === undefined ? {} : { logMessage: point.logMessage }),
        ...(breakpoint?.line === undefined ? {} : { bound: breakpoint.line }),
        verified: breakpoint?.verified ?? false,
        ...(message.length === 0 ? {} : { message }),
        ...(breakpoint?.id === undefined ? {} : { id: breakpoint.id }),
      };
    });
    if (rows.length === 0) this.breakpoints.delete(file);
    else this.breakpoints.set(file, rows);
    return rows;
  }

  /** Replace the function breakpoints (an empty list clears them) and record what the adapter answered. */
  async setFunctionBreakpoints(names: readonly string[]): Promise<FunctionBreakpointRow[]> {
    if (this.capabilities.supportsFunctionBreakpoints !== true) {
      this.functionBreakpoints = names.map((name) => ({
        name,
        verified: false,
        message: `${this.settings.adapter.id} does not support function breakpoints`,
      }));
      return this.functionBreakpoints;
    }
    const response = await this.request<DebugProtocol.SetFunctionBreakpointsResponse>("setFunctionBreakpoints", {
      breakpoints: names.map((name) => ({ name })),
    });
    const answered = response.body?.breakpoints ?? [];
    this.functionBreakpoints = names.map((name, index): FunctionBreakpointRow => {
      const breakpoint = answered[index];
      return {
        name,
        verified: breakpoint?.verified ?? false,
        ...(breakpoint?.source?.path === undefined ? {} : { file: breakpoint.source.path }),
        ...(breakpoint?.line === undefined ? {} : { line: breakpoint.line }),
        ...(breakpoint?.message === undefined ? {} : { message: breakpoint.message }),
        ...(breakpoint?.id === undefined ? {} : { id: breakpoint.id }),
      };
    });
    return this.functionBreakpoints;
  }

  /** The data breakpoints set (watched variables), in the order they were added. */
  dataBreakpoints: Array<{
    dataId: string;
    description: string;
    accessType: DebugProtocol.DataBreakpointAccessType;
    verified: boolean;
    message?: string;
  }> = [];

  /** Replace the data breakpoints with `list` and record what the adapter answered for each. */
  async setDataBreakpoints(
    list: ReadonlyArray<{ dataId: string; description: string; accessType: DebugProtocol.DataBreakpointAccessType }>,
  ): Promise<DebugSession["dataBreakpoints"]> {
    const response = await this.request<DebugProtocol.SetDataBreakpointsResponse>("setDataBreakpoints", {
      breakpoints: list.map((item) => ({ dataId: item.dataId, accessType: item.accessType })),
    });
    const answered = response.body?.breakpoints ?? [];
    this.dataBreakpoints = list.map((item, index) => ({
      ...item,
      verified: answered[index]?.verified ?? false,
      ...(answered[index]?.message === undefined ? {} : { message: answered[index]!.message! }),
    }));
    return this.dataBreakpoints;
  }

  /** Replace the exception filters; filters the adapter does not offer are not sent, and said. */
  async setExceptionFilters(filters: readonly string[]): Promise<ExceptionFiltersAnswer> {
    const offered = this.capabilities.exceptionBreakpointFilters ?? [];
    const known = new Set(offered.map((filter) => filter.filter));
    const sent = filters.filter((filter) => known.has(filter));
    const response = await this.request<DebugProtocol.SetExceptionBreakpointsResponse>("setExceptionBreakpoints", {
      filters: sent,
    });
    const verdicts = response.body?.breakpoints;
    this.exceptionFilters = {
      accepted: sent.map((filter, index) => {
        const verdict = verdicts?.[index];
        return {
          filter,
          ...(verdict === undefined ? {} : { verified: verdict.verified }),
          ...(verdict?.message === undefined ? {} : { message: verdict.message }),
        };
      }),
      unknown: filters.filter((filter) => !known.has(filter)),
      offered,
    };
    return this.exceptionFilters;
  }

  /**
   * Send an execution request (continue, next, stepIn, stepOut, pause) and wait at most the stop
   * budget for `stopped`/`terminated`/`exited`. The wait is registered before the request is sent.
   */
  async execute(command: string, args: unknown, signal?: AbortSignal): Promise<ExecutionOutcome> {
    const next = this.adapter.connection.waitForEvent(
      (event) => endEvents.has(event.event),
      this.settings.stopBudgetMs,
      signal,
    );
    if (command !== "pause") this.state = "running";
    try {
      await this.request(command, args);
    } catch (error) {
      if (command !== "pause") this.state = "stopped";
      throw error;
    }
    return this.outcomeOf(next);
  }

  private async outcomeOf(wait: Promise<EventWait>): Promise<ExecutionOutcome> {
    const outcome = await wait;
    // A wait the caller gave up on leaves the program as it is: running.
    if (outcome.kind === "timeout" || outcome.kind === "aborted") return { kind: "running" };
    if (outcome.kind === "closed")
      return { kind: "crashed", detail: this.crashDetail ?? "The debug adapter closed the connection." };
    if (outcome.event.event === "stopped") return { kind: "stopped", stop: this.lastStop! };
    // `exited` (with the code) and `terminated` come as a pair in either order; wait briefly for the other.
    if (this.exitCode === undefined)
      await this.adapter.connection.waitForEvent((event) => event.event === "exited", 300);
    return { kind: "exited", ...(this.exitCode === undefined ? {} : { exitCode: this.exitCode }) };
  }

  /**
   * End the session at once, for a run that is over. Its host may exit a fraction of a second after
   * asking (the CLI gives each resource 250 ms once its client is gone), which would cut {@link end}'s
   * disconnect short and leave a running lldb or dlv debuggee behind (it is not in the adapter's
   * group). So every process known is SIGKILLed, with its group, before anything is awaited; then
   * what the process table shows below them; then the wait until all are gone. Idempotent, like end.
   */
  kill(): Promise<void> {
    if (this.ending === undefined) killGroupsNow(this.knownPids());
    this.ending ??= (async () => {
      // Awaited once first, so the close below finds `ending` set and is not taken for a crash.
      await Promise.resolve();
      this.adapter.hangUp();
      this.adapter.connection.close();
      // Pids the first read of the table found after the kill above (a debuggee's helpers).
      await this.recording;
      await killProcesses(this.knownPids(), 2_000);
      await this.adapter.process?.stop({ graceMs: 0 });
      if (this.state !== "crashed") this.state = "ended";
      await rm(this.sessionDirectory, { recursive: true, force: true });
    })();
    return this.ending;
  }

  /**
   * End the session, leaving no process behind: disconnect with terminateDebuggee (2 s, 200 ms after a
   * crash), hang up (debugpy's adapter exits only on stdin EOF), stop the adapter's process group,
   * then SIGKILL every debuggee pid recorded (lldb-server starts it with --setsid and dlv in its own
   * group, so neither group kill reaches it), and wait until they are gone. Idempotent.
   */
  end(): Promise<void> {
    this.ending ??= (async () => {
      const alive = !this.adapter.connection.closed;
      await this.recording;
      if (alive) {
        await this.recordDebuggee().catch(() => undefined);
        await this.request(
          "disconnect",
          { terminateDebuggee: this.settings.attachPort === undefined, restart: false },
          this.state === "crashed" ? 200 : 2_000,
        ).catch(() => undefined);
      }
      this.adapter.hangUp();
      this.adapter.connection.close();
      await this.adapter.process?.waitForExit(alive ? 1_000 : 0);
      await this.adapter.process?.stop({ graceMs: 1_000 });
      await killProcesses([...this.debuggeePids], 2_000);
      if (this.state !== "crashed") this.state = "ended";
      await rm(this.sessionDirectory, { recursive: true, force: true });
    })();
    return this.ending;
  }
}

/** The parts of a source breakpoint the adapter's capabilities say it cannot honour. */
function unsupportedPointFeatures(
  point: DebugProtocol.SourceBreakpoint,
  capabilities: DebugProtocol.Capabilities,
): string[] {
  return [
    point.condition !== undefined && capabilities.supportsConditionalBreakpoints !== true ? "conditions" : "",
    point.hitCondition !== undefined && capabilities.supportsHitConditionalBreakpoints !== true ? "hit conditions" : "",
    point.logMessage !== undefined && capabilities.supportsLogPoints !== true ? "log messages" : "",
  ].filter((feature) => feature.length > 0);
}

export { AdapterStartFailed };
