import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { displayPath, hostPlacement, type Placement } from "@runbound/runtime-kit";
import { defineResource, ToolError } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { checkAdapter, type AdapterAvailability } from "./adapter-availability.js";
import {
  ADAPTERS,
  processLocateDefaults,
  type AdapterDefinition,
  type AdapterId,
  type LaunchOptions,
} from "./adapter-table.js";
import { CargoTestBuildFailed } from "./cargo-test-binary.js";
import { AdapterStartFailed, DebugSession, LaunchFailed, type ExecutionOutcome } from "./debug-session.js";
import { createLaunchSetupCache } from "./launch-setup-cache.js";

const DISPOSED_DURING_LAUNCH =
  "The debug supervisor was disposed (its run ended) during the launch; nothing is left running.";

/** Settings of {@link createDebugSupervisor}. */
export interface DebugSupervisorSettings {
  /** A session's hard lifetime in milliseconds; default 30 minutes (DESIGN §4 debug). */
  ttlMs?: number;
  /** The clock, in milliseconds; default `Date.now` (a test injects one to pass the TTL at once). */
  now?: () => number;
  /** How long launch/continue/step/pause wait for a stop before answering "still running"; default 10 000. */
  stopBudgetMs?: number;
  /** Budget of one DAP request; default 10 000. */
  requestTimeoutMs?: number;
  /** Budget of the handshake up to the launch response; default 30 000, or 180 000 when the adapter builds first (a cold `go build`). */
  handshakeTimeoutMs?: number;
  /** Characters of program output kept per session; default 262 144. */
  outputCapacity?: number;
  /** The environment adapters and programs run with; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** An interpreter that can import debugpy, tried after the project's `.venv`/`venv` and before PATH (e.g. a cached virtualenv). */
  debugpyPython?: string;
  /** The adapter table; default {@link ADAPTERS} (a test hands in a fake one for fault injection). */
  adapters?: readonly AdapterDefinition[];
  /**
   * Where adapters and the programs they launch run; default the host. The host of the run decides
   * (a sandbox from `createBubblewrapPlacement`); an attach's adapter always runs on the host, beside
   * the program it attaches to.
   */
  placement?: Placement;
}

/** What to start: a program to launch, or a port to attach to. */
export type StartRequest = {
  /** The adapter to use; default: chosen from the program (launch) or debugpy (attach). */
  adapter?: AdapterId;
  /** Progress lines for the caller. */
  onProgress(message: string): void;
} & (
  | {
      /** Launch a program. */
      request: "launch";
      /** The program (absolute, inside the workdir); with `options.module` absent (the module runs in `cwd`). */
      program?: string;
      /** Its arguments. */
      args: readonly string[];
      /** Its working directory (absolute, inside the workdir); default the project root (the marker's directory). */
      cwd?: string;
      /** Module, environment, stop on entry, just my code, test mode. */
      options?: LaunchOptions;
    }
  | {
      /** Attach to a debuggee listening on a loopback port. */
      request: "attach";
      /** The port. */
      port: number;
    }
);

/** The live state of one conversation, for `status`. */
export interface ConversationStatus {
  /** The session, if one exists. */
  session?: DebugSession;
  /** Why the last session ended, when it expired. */
  expired?: string;
  /** Breakpoints queued for the next launch: file → lines with their conditions. */
  queued: ReadonlyMap<string, readonly DebugProtocol.SourceBreakpoint[]>;
  /** Function breakpoints for the next launch. */
  functions: readonly string[];
  /** Exception filters for the next launch; undefined: the adapter's defaults. */
  exceptionFilters?: readonly string[];
}

/** The resource the debug tool depends on: one debug session per conversation, each with a hard TTL. */
export interface DebugSupervisorInstance {
  /** Each adapter's availability for a directory (root marker AND program), with the reason. Starts nothing. */
  adapters(workdir: string, start?: string): Promise<AdapterAvailability[]>;
  /** Start a session for the conversation. @throws ToolError `conflict` when one is running. */
  start(
    conversationId: string,
    workdir: string,
    request: StartRequest,
  ): Promise<{ session: DebugSession; outcome: ExecutionOutcome }>;
  /** The conversation's live session. @throws ToolError `not_found` (none, or expired: the message says so). */
  session(conversationId: string): DebugSession;
  /** The conversation's state, without throwing. */
  status(conversationId: string): ConversationStatus;
  /** Remember breakpoints for a file (an empty list clears); they are sent at the next launch too. */
  rememberBreakpoints(conversationId: string, file: string, points: readonly DebugProtocol.SourceBreakpoint[]): void;
  /** Remember the function breakpoints (an empty list clears); sent at the next launch too. */
  rememberFunctionBreakpoints(conversationId: string, names: readonly string[]): void;
  /** Remember the exception filters; sent at the next launch instead of the adapter's defaults. */
  rememberExceptionFilters(conversationId: string, filters: readonly string[]): void;
  /** End the conversation's session, leaving no process behind. @returns whether there was one. */
  terminate(conversationId: string): Promise<boolean>;
  /** The settings in force. */
  readonly settings: Readonly<Required<Omit<DebugSupervisorSettings, "debugpyPython" | "env" | "placement">>> &
    Pick<DebugSupervisorSettings, "debugpyPython" | "env" | "placement">;
  /** For a host's status view: sessions and their state. Starts nothing. */
  describe(): string;
  /** End every session at once, its processes SIGKILLed before anything is awaited (the run is over; its host may exit right after). Later starts are refused. */
  dispose(): Promise<void>;
}

/** The debug-session supervisor resource: `ctx.resource(DebugSupervisor)`. */
export const DebugSupervisor = defineResource<DebugSupervisorInstance>(
  "debug.supervisor",
  "Debug sessions over DAP (debugpy, lldb, delve, dart), one per conversation with a hard TTL; usually created by createDebugSupervisor().",
);

interface Conversation {
  session?: DebugSession;
  timer?: NodeJS.Timeout;
  expired?: string;
  breakpoints: Map<string, readonly DebugProtocol.SourceBreakpoint[]>;
  functions: readonly string[];
  exceptionFilters?: readonly string[];
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** Create the supervisor. Starts nothing until a launch. */
export function createDebugSupervisor(settings: DebugSupervisorSettings = {}): DebugSupervisorInstance {
  const resolved = {
    ttlMs: settings.ttlMs ?? 30 * 60_000,
    now: settings.now ?? Date.now,
    stopBudgetMs: settings.stopBudgetMs ?? 10_000,
    requestTimeoutMs: settings.requestTimeoutMs ?? 10_000,
    handshakeTimeoutMs: settings.handshakeTimeoutMs ?? 30_000,
    outputCapacity: settings.outputCapacity ?? 262_144,
    adapters: settings.adapters ?? ADAPTERS,
    ...(settings.env === undefined ? {} : { env: settings.env }),
    ...(settings.debugpyPython === undefined ? {} : { debugpyPython: settings.debugpyPython }),
    ...(settings.placement === undefined ? {} : { placement: settings.placement }),
  };
  const conversations = new Map<string, Conversation>();
  // lldb's Rust setup asks rustc once per root and toolchain, not at every launch.
  const setupCache = createLaunchSetupCache();
  // Sessions whose adapter runs but whose handshake has not ended: a dispose kills them too.
  const launching = new Set<DebugSession>();
  let disposed = false;

  function conversation(id: string): Conversation {
    let found = conversations.get(id);
    if (found === undefined) {
      found = { breakpoints: new Map(), functions: [] };
      conversations.set(id, found);
    }
    return found;
  }

  function availabilityContext(workdir: string) {
    const defaults = processLocateDefaults();
    return {
      workdir,
      pathVariable: resolved.env?.["PATH"] ?? defaults.pathVariable,
      home: defaults.home,
      debugpyPython: resolved.debugpyPython,
    };
  }

  function describeSession(session: DebugSession, workdir: string | undefined): string {
    const target = workdir === undefined ? session.target(session.settings.cwd) : session.target(workdir);
    return `${session.settings.adapter.id} session on \`${target}\` (${session.state}, started ${seconds(resolved.now() - session.startedAt)} ago)`;
  }

  async function expire(id: string): Promise<void> {
    const entry = conversations.get(id);
    const session = entry?.session;
    if (entry === undefined || session === undefined) return;
    clearTimeout(entry.timer);
    entry.session = undefined;
    entry.expired = `The debug session of this conversation (${describeSession(session, undefined)}) expired after its time limit of ${seconds(resolved.ttlMs)}; its adapter and program were stopped. Launch again to start a new one.`;
    await session.end();
  }

  // The TTL holds by the clock, checked on every access (an injected clock passes it at once), and by
  // a timer, so the processes go even when no call comes.
  function live(id: string): DebugSession | undefined {
    const entry = conversations.get(id);
    const session = entry?.session;
    if (session === undefined) return undefined;
    if (resolved.now() - session.startedAt >= resolved.ttlMs) {
      void expire(id);
      return undefined;
    }
    return session;
  }

  async function chooseAdapter(
    workdir: string,
    program: string,
    isDirectory: boolean,
    wanted: AdapterId | undefined,
  ): Promise<{ adapter: AdapterDefinition; availability: AdapterAvailability }> {
    const candidates =
      wanted === undefined
        ? resolved.adapters.filter((adapter) => adapter.accepts(program, isDirectory))
        : resolved.adapters.filter((adapter) => adapter.id === wanted);
    if (candidates.length === 0) {
      throw new ToolError({
        code: "invalid_input",
        message:
          wanted === undefined
            ? `No debug adapter debugs \`${displayPath(workdir, program)}\`. Give a .py file (debugpy), a .go file or package directory (delve), a .dart file (dart) or a built executable (lldb), or name the adapter.`
            : `Adapter \`${wanted}\` is not one of ${resolved.adapters.map((adapter) => `\`${adapter.id}\``).join(", ")}.`,
      });
    }
    const start = isDirectory ? program : dirname(program);
    const checks = await Promise.all(
      candidates.map(async (adapter) => ({
        adapter,
        availability: await checkAdapter(adapter, start, availabilityContext(workdir)),
      })),
    );
    const usable = checks.find((check) => check.availability.available);
    if (usable !== undefined) return usable;
    throw new ToolError({
      code: "unavailable",
      message: `Cannot debug \`${displayPath(workdir, program)}\`: ${checks.map((check) => `${check.adapter.id}: ${check.availability.reason}`).join(" ")} Add the project marker or install the adapter (see op \`adapters\`).`,
    });
  }

  return {
    settings: resolved,

    async adapters(workdir, start = workdir) {
      return Promise.all(
        resolved.adapters.map((adapter) => checkAdapter(adapter, start, availabilityContext(workdir))),
      );
    },

    async start(id, workdir, request) {
      if (disposed)
        throw new ToolError({
          code: "unavailable",
          message: "The debug supervisor was disposed (its run ended); start a new run to debug again.",
        });
      const entry = conversation(id);
      const running = live(id);
      if (running !== undefined && (running.state === "running" || running.state === "stopped")) {
        throw new ToolError({
          code: "conflict",
          message: `This conversation already has a ${describeSession(running, workdir)}; only one runs at a time. Call op \`terminate\` first, then launch again.`,
        });
      }
      if (running !== undefined) await running.end();
      entry.session = undefined;
      const options = request.request === "launch" ? (request.options ?? {}) : {};
      // A module runs in its working directory: that directory stands for the program when choosing the adapter.
      const program = request.request === "launch" ? (request.program ?? request.cwd ?? workdir) : workdir;
      const isDirectory =
        request.request === "attach" || ((await stat(program).catch(() => undefined))?.isDirectory() ?? false);
      const wanted =
        request.request === "attach"
          ? (request.adapter ?? "debugpy")
          : (request.adapter ?? (options.module !== undefined ? "debugpy" : undefined));
      if (options.module !== undefined && wanted !== "debugpy") {
        throw new ToolError({
          code: "invalid_input",
          message: `\`module\` (\`${options.module}\`) runs a Python module and needs debugpy, not ${wanted}. Leave out \`module\`, or \`adapter\`.`,
        });
      }
      const { adapter, availability } = await chooseAdapter(workdir, program, isDirectory, wanted);
      if (request.request === "attach" && adapter.attachArguments === undefined) {
        throw new ToolError({
          code: "invalid_input",
          message: `Adapter \`${adapter.id}\` cannot attach by port here; attach works with ${resolved.adapters
            .filter((candidate) => candidate.attachArguments !== undefined)
            .map((candidate) => `\`${candidate.id}\``)
            .join(", ")}. Launch the program instead.`,
        });
      }
      if (options.mode === "test" && adapter.testMode === undefined) {
        throw new ToolError({
          code: "invalid_input",
          message: `Adapter \`${adapter.id}\` has no test mode; \`mode: "test"\` works with ${resolved.adapters
            .filter((candidate) => candidate.testMode !== undefined)
            .map((candidate) => `\`${candidate.id}\``)
            .join(", ")}. Launch the program without \`mode\`.`,
        });
      }
      const builds =
        request.request === "launch" && (adapter.builds({ program, isDirectory }) || options.mode === "test");
      const handshakeTimeoutMs = settings.handshakeTimeoutMs ?? (builds ? 180_000 : resolved.handshakeTimeoutMs);
      let launched = program;
      if (request.request === "launch" && options.mode === "test" && adapter.prepareTest !== undefined) {
        request.onProgress(
          `Building the tests of \`${displayPath(workdir, availability.marker!.directory)}\` (cargo test --no-run)…`,
        );
        try {
          launched = await adapter.prepareTest({
            program,
            isDirectory,
            root: availability.marker!.directory,
            env: resolved.env ?? process.env,
            timeoutMs: handshakeTimeoutMs,
          });
        } catch (error) {
          if (!(error instanceof CargoTestBuildFailed)) throw error;
          throw new ToolError({
            code: "invalid_input",
            message: `${error.message}${error.output.length > 0 ? `\nOutput (last lines):\n${error.output}` : ""}\nFix the build and launch again.`,
            cause: error,
          });
        }
        if (disposed) throw new ToolError({ code: "unavailable", message: DISPOSED_DURING_LAUNCH });
      }
      let launchingSession: DebugSession | undefined;
      try {
        const started = await DebugSession.launch(
          {
            adapter,
            located: availability.located!,
            ...(request.request === "attach"
              ? { attachPort: request.port, program: `127.0.0.1:${request.port}`, args: [] }
              : { program: launched, args: request.args, ...options }),
            isDirectory,
            cwd:
              request.request === "launch" && request.cwd !== undefined ? request.cwd : availability.marker!.directory,
            env: resolved.env ?? process.env,
            root: availability.marker!.directory,
            ...(settings.placement === undefined ? {} : { placement: settings.placement }),
            breakpoints: entry.breakpoints,
            functionBreakpoints: entry.functions,
            ...(entry.exceptionFilters === undefined ? {} : { exceptionFilters: entry.exceptionFilters }),
            requestTimeoutMs: resolved.requestTimeoutMs,
            handshakeTimeoutMs,
            stopBudgetMs: resolved.stopBudgetMs,
            outputCapacity: resolved.outputCapacity,
            onProgress: request.onProgress,
            setupCache,
            onStarted: (session) => {
              launchingSession = session;
              launching.add(session);
              if (disposed) void session.kill();
            },
          },
          resolved.now(),
        ).finally(() => {
          if (launchingSession !== undefined) launching.delete(launchingSession);
        });
        if (disposed) {
          await started.session.kill();
          throw new ToolError({ code: "unavailable", message: DISPOSED_DURING_LAUNCH });
        }
        entry.session = started.session;
        delete entry.expired;
        entry.timer = setTimeout(() => void expire(id), resolved.ttlMs);
        entry.timer.unref();
        return started;
      } catch (error) {
        if (disposed)
          throw ToolError.isInstance(error) && error.message === DISPOSED_DURING_LAUNCH
            ? error
            : new ToolError({ code: "unavailable", message: DISPOSED_DURING_LAUNCH, cause: error });
        if (error instanceof LaunchFailed && error.fault === "adapter") {
          // The adapter ended or hung: nothing about the program to fix, so not invalid_input (issue 22, item 5).
          throw new ToolError({
            code: "unavailable",
            message: `The ${adapter.id} debug adapter failed while ${request.request === "attach" ? `attaching to port ${request.port}` : `launching \`${displayPath(workdir, program)}\``}: ${error.adapterMessage}${error.outputTail.length > 0 ? `\nOutput (last lines):\n${error.outputTail}` : ""}\nThe adapter and the program were stopped. Check the adapter (op \`adapters\` shows which program was used) and launch again.`,
            cause: error,
          });
        }
        if (error instanceof LaunchFailed) {
          throw new ToolError({
            code: "invalid_input",
            message: `${adapter.id} could not ${request.request === "attach" ? `attach to port ${request.port}` : `run \`${displayPath(workdir, program)}\``}: ${error.adapterMessage}${error.outputTail.length > 0 ? `\nProgram output (last lines):\n${error.outputTail}` : ""}\nFix the program or its path and launch again.`,
            cause: error,
          });
        }
        if (error instanceof AdapterStartFailed || (error as NodeJS.ErrnoException).code === "ENOENT") {
          throw new ToolError({
            code: "unavailable",
            message: `The ${adapter.id} debug adapter \`${availability.located!.command}\` did not start: ${(error as Error).message}${error instanceof AdapterStartFailed && error.stderr.length > 0 ? ` Its stderr: ${error.stderr.slice(-5).join(" | ")}` : ""} Check the adapter's installation (op \`adapters\`).`,
            cause: error,
          });
        }
        throw error;
      }
    },

    session(id) {
      const session = live(id);
      if (session !== undefined) return session;
      const expired = conversations.get(id)?.expired;
      throw new ToolError({
        code: "not_found",
        message:
          expired ?? "This conversation has no debug session. Start one with op `launch` (program) or `attach` (port).",
      });
    },

    status(id) {
      const entry = conversations.get(id);
      const session = live(id);
      return {
        ...(session === undefined ? {} : { session }),
        ...(entry?.expired === undefined ? {} : { expired: entry.expired }),
        queued: entry?.breakpoints ?? new Map(),
        functions: entry?.functions ?? [],
        ...(entry?.exceptionFilters === undefined ? {} : { exceptionFilters: entry.exceptionFilters }),
      };
    },

    rememberBreakpoints(id, file, points) {
      const entry = conversation(id);
      if (points.length === 0) entry.breakpoints.delete(file);
      else entry.breakpoints.set(file, [...points]);
    },

    rememberFunctionBreakpoints(id, names) {
      conversation(id).functions = [...names];
    },

    rememberExceptionFilters(id, filters) {
      conversation(id).exceptionFilters = [...filters];
    },

    async terminate(id) {
      const entry = conversations.get(id);
      const session = entry?.session;
      if (entry === undefined || session === undefined) return false;
      clearTimeout(entry.timer);
      entry.session = undefined;
      await session.end();
      return true;
    },

    describe() {
      const sessions = [...conversations.values()]
        .map((entry) => entry.session)
        .filter((session): session is DebugSession => session !== undefined);
      const where = `adapters and programs run ${(settings.placement ?? hostPlacement).describe()}`;
      if (sessions.length === 0)
        return `no debug session (TTL ${seconds(resolved.ttlMs)}; adapters: ${resolved.adapters.map((adapter) => adapter.id).join(", ")}; op \`adapters\` says which can run here); ${where}`;
      return `${sessions.map((session) => describeSession(session, undefined)).join("; ")}; ${where}`;
    },

    async dispose() {
      disposed = true;
      const sessions: DebugSession[] = [...launching];
      for (const entry of conversations.values()) {
        clearTimeout(entry.timer);
        if (entry.session !== undefined) sessions.push(entry.session);
        entry.session = undefined;
      }
      // Killed, not ended gracefully: the host may exit right after asking (see DebugSession.kill).
      await Promise.all(sessions.map((session) => session.kill()));
    },
  };
}
