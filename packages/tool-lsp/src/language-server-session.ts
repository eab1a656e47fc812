import {
  displayPath,
  hostPlacement,
  LineTail,
  spawnOwnedProcess,
  type OwnedProcess,
  type Placement,
  type ProcessExit,
} from "@runbound/runtime-kit";
import { abortedError, ToolError } from "@runbound/tool-kit";
import { setMaxListeners } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
} from "vscode-jsonrpc/node";
import { createProtocolConnection, type ProtocolConnection } from "vscode-languageserver-protocol/node";
import {
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LSPErrorCodes,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageRequest,
  ShutdownRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceDiagnosticRequest,
  WorkspaceFoldersRequest,
  type Registration,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { DocumentSync } from "./document-sync.js";
import { negotiatedEncoding, type PositionEncoding } from "./position-encoding.js";
import { ProgressTracker, type ActiveProgress } from "./progress-tracker.js";
import type { SendRequest, SessionRequests } from "./session-requests.js";
import { PublishedDiagnostics } from "./published-diagnostics.js";
import { WORKSPACE_DIAGNOSTICS_WORK_TOKEN } from "./workspace-diagnostic-tokens.js";
import { describeBound, RequestWatchdog, type HungRequest } from "./request-watchdog.js";
import type { LspServerSpec } from "./server-spec.js";
import { settingsSection } from "./settings-section.js";
import type { ServerSandboxNeeds } from "./server-sandbox-needs.js";

/** Retries of a request the server answered with `ContentModified`, and the pause before each. */
const contentModifiedRetries = 3;
const contentModifiedDelayMs = 200;

/** How a session ended. */
export interface SessionExit {
  /** One clause: `exited with code 3`, `was killed by SIGKILL`, `sent output that is not JSON-RPC (…)`; a failed write to a server that exited names the exit. */
  reason: string;
  /** True when this client stopped it (dispose, reload, idle eviction); false for a crash. */
  expected: boolean;
  /** The server's last stderr lines. */
  stderr: string[];
  /** Set when it was stopped for leaving a request unanswered past `unresponsiveMs`. */
  unresponsive?: HungRequest;
}

/** What {@link LanguageServerSession.start} needs. */
export interface SessionSettings {
  spec: LspServerSpec;
  root: string;
  workdir: string;
  /** Whether the project's own code may run (its TypeScript's tsserver); default true. */
  trusted?: boolean;
  /** The resolved program. */
  binary: string;
  env: NodeJS.ProcessEnv;
  /** Where the server runs; default the host. */
  placement?: Placement;
  /** In a sandbox: what the server needs of the host (see `serverSandboxNeeds`). */
  sandboxNeeds?: ServerSandboxNeeds;
  /** Bounds the start and `initialize`; aborting it kills the process. */
  signal: AbortSignal;
  /**
   * Called once, synchronously, when the session ends, before any pending request is answered; what
   * it returns (a sentence about restarting) is appended to those requests' errors.
   */
  onExit: (exit: SessionExit) => string;
  /** Called for every `$/progress` begin and report, from the first one (during `initialize`) on. */
  onProgress?: (progress: ActiveProgress) => void;
  /**
   * A request (other than `initialize` and `shutdown`, which have their own bounds) left unanswered
   * this long, counted only while the server reports no `$/progress` work, ends the session as
   * unresponsive: the process group is killed and every pending request fails. Default: no bound.
   */
  unresponsiveMs?: number;
}

/** The spec's settings with `python.pythonPath` set, when an interpreter must be named. */
function withPythonPath(
  settings: Readonly<Record<string, unknown>> | undefined,
  pythonPath: string | undefined,
): Readonly<Record<string, unknown>> | undefined {
  if (pythonPath === undefined) return settings;
  const python = (settings?.["python"] ?? {}) as Record<string, unknown>;
  return { ...settings, python: { ...python, pythonPath } };
}

/** How long a failed write waits for the server's exit to be reported before it is named the cause itself. */
const pipeErrorExitWaitMs = 2_000;

/** An I/O error of the pipes (EPIPE, ECONNRESET, a write after the stream ended), not bad output: it carries a system or stream error code. */
function isPipeError(error: Error): boolean {
  return typeof (error as NodeJS.ErrnoException).code === "string";
}

function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

function abortReason(signal: AbortSignal, label: string): ToolError {
  return abortedError(signal, {
    timeout: `${label} did not finish in time and was stopped. Try again; if the server is still indexing, wait until \`lsp\` \`status\` says running.`,
    cancelled: `${label} was cancelled before it finished.`,
  });
}

/**
 * The controller of a session's end. Every request and wait in flight listens on its signal and
 * removes the listener when done, so more than Node's default of 10 at once (a page of references
 * asks 8 files' symbols besides a workspace-diagnostics stream) is not a leak: no warning for it.
 */
function endControllerForManyWaits(): AbortController {
  const controller = new AbortController();
  setMaxListeners(1_000, controller.signal);
  return controller;
}

/**
 * One running language server for one project root: its process, its JSON-RPC connection, what it
 * told us in `initialize`, its progress, its pushed diagnostics and the documents it has open.
 */
export class LanguageServerSession implements SessionRequests {
  /** The server's progress (`$/progress`), with the works that diagnose our changes told apart. */
  readonly progress = new ProgressTracker(
    (token, title) =>
      token === WORKSPACE_DIAGNOSTICS_WORK_TOKEN ||
      (this.spec.affectedFiles?.kind === "check-progress" && this.spec.affectedFiles.title.test(title)),
  );
  /** Diagnostics the server pushed. */
  readonly published = new PublishedDiagnostics();
  /** Dynamic registrations (`client/registerCapability`) by id: a server may register a method anew before unregistering the old id. */
  readonly registrations = new Map<string, Registration>();
  /** When the process started (ms since the epoch). */
  readonly startedAt = Date.now();
  /** The documents the server has open, and how they are kept in step with the files. */
  readonly documents = new DocumentSync(
    (send) => {
      // Every notification DocumentSync sends changes what the server sees: a server that diagnoses each one as a progress work is caught up when as many have ended.
      this.changesSent += 1;
      this.notify(send);
    },
    () => this.capabilitiesValue,
    (method) => this.registered(method),
  );
  /** Handlers of partial results by their request's `partialResultToken`. */
  readonly partialResultHandlers = new Map<string | number, (value: unknown) => void>();
  /** Observers of one progress token's values, told before the tracker and the watchdog are. */
  readonly progressObservers = new Map<string | number, (value: unknown) => void>();
  /** Notifications sent that change the server's view of the files (open, change, save, close, files changed on disk). */
  changesSent = 0;
  private readonly log = new LineTail(20);
  private capabilitiesValue: ServerCapabilities = {};
  private encodingValue: PositionEncoding = "utf-16";
  private exitValue: SessionExit | undefined;
  private stopping = false;
  private pipeFailed = false;
  private exitNote = "";
  private readonly ended: Promise<SessionExit>;
  private readonly endController = endControllerForManyWaits();
  private endSession!: (exit: SessionExit) => void;
  private watchdog: RequestWatchdog | undefined;

  private constructor(
    readonly spec: LspServerSpec,
    readonly root: string,
    /** The root as messages show it: relative to the workdir. */
    readonly shownRoot: string,
    private readonly process: OwnedProcess,
    private readonly connection: ProtocolConnection,
    private readonly onExit: (exit: SessionExit) => string,
    // The settings it is served (`workspace/configuration`): the spec's, with the interpreter named in a sandbox.
    private readonly settings: Readonly<Record<string, unknown>> | undefined,
  ) {
    this.ended = new Promise((resolve) => (this.endSession = resolve));
  }

  /**
   * Start the server and run `initialize`/`initialized`. If anything fails or `signal` aborts, the
   * process is stopped before this rejects, so a failed start leaves nothing running.
   * @throws ToolError `unavailable` (the server would not start or answer), `timeout`/`cancelled`.
   */
  static async start(settings: SessionSettings): Promise<LanguageServerSession> {
    const needs = settings.sandboxNeeds;
    const child = await spawnOwnedProcess({
      command: settings.binary,
      args: settings.spec.server.args,
      cwd: settings.root,
      env: { ...settings.env, ...needs?.env },
      ...(settings.placement === undefined ? {} : { placement: settings.placement }),
      ...(needs === undefined
        ? {}
        : { readOnlyPaths: needs.readOnlyPaths, writablePaths: needs.writablePaths, ownEnv: Object.keys(needs.env) }),
    }).catch((error: unknown) => {
      throw new ToolError({
        code: "unavailable",
        message: `Language server \`${settings.spec.id}\` (\`${settings.binary}\`) could not be started: ${(error as Error).message}. Check that the program runs, or install it: ${settings.spec.install}.`,
        cause: error,
      });
    });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const session = new LanguageServerSession(
      settings.spec,
      settings.root,
      displayPath(settings.workdir, settings.root),
      child,
      connection,
      settings.onExit,
      withPythonPath(settings.spec.settings, needs?.pythonPath),
    );
    if (settings.onProgress !== undefined) session.progress.listen(settings.onProgress);
    if (settings.unresponsiveMs !== undefined) {
      session.watchdog = new RequestWatchdog(settings.unresponsiveMs, (request) => session.hung(request));
    }
    session.wire();
    try {
      await session.initialize(settings);
      return session;
    } catch (error) {
      await session.stop(0);
      const exit = session.exitValue;
      if (ToolError.isInstance(error) && error.code !== "internal") throw error;
      throw new ToolError({
        code: "unavailable",
        message: `Language server \`${settings.spec.id}\` for \`${displayPath(settings.workdir, settings.root)}\` failed to initialize: ${(error as Error).message}${exit === undefined ? "" : ` (it ${exit.reason})`}.${LanguageServerSession.stderrNote(child.stderrTail())} Check its installation (${settings.spec.install}).`,
        cause: error,
      });
    }
  }

  /** Whether the server registered `method` dynamically. */
  registered(method: string): boolean {
    return [...this.registrations.values()].some((registration) => registration.method === method);
  }

  /** The last stderr lines as a sentence for messages, or "" when there are none. */
  static stderrNote(lines: readonly string[]): string {
    const kept = lines.filter((line) => line.trim().length > 0).slice(-5);
    return kept.length === 0 ? "" : ` Its last stderr lines: ${kept.map((line) => `\`${line.trim()}\``).join(" / ")}.`;
  }

  /** Aborted when the session ends: for waits that must stop then, with a listener they remove again. */
  get endedSignal(): AbortSignal {
    return this.endController.signal;
  }

  /** The process id (also its process-group id). */
  get pid(): number {
    return this.process.pid;
  }

  /** The position encoding the server chose. */
  get positionEncoding(): PositionEncoding {
    return this.encodingValue;
  }

  /** The capabilities from `initialize`. */
  get capabilities(): ServerCapabilities {
    return this.capabilitiesValue;
  }

  /** How the session ended, once it has. */
  get exit(): SessionExit | undefined {
    return this.exitValue;
  }

  /** The server's last stderr lines, then its last `window/logMessage` lines. */
  stderrTail(): string[] {
    return [...this.process.stderrTail(), ...this.log.snapshot().map((line) => `log: ${line}`)];
  }

  /**
   * Send a request bounded by `signal`; when it aborts, `$/cancelRequest` goes to the server and the
   * call answers at once. A server that dies meanwhile answers `unavailable` with its exit and stderr.
   */
  async request<R>(method: string, send: SendRequest<R>, signal: AbortSignal): Promise<R> {
    if (this.exitValue !== undefined) throw this.endedError(method);
    const label = `Request \`${method}\` to language server \`${this.spec.id}\``;
    if (signal.aborted) throw abortReason(signal, label);
    const source = new CancellationTokenSource();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        source.cancel();
        reject(abortReason(signal, label));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
    // Through a listener removed below, not a `then` on the end: a long session makes many requests.
    let onEnd: (() => void) | undefined;
    const crashed = new Promise<never>((_, reject) => {
      onEnd = () => reject(this.endedError(method));
      this.endedSignal.addEventListener("abort", onEnd, { once: true });
    });
    try {
      const answer = this.sendRetryingContentModified(method, send, source.token, signal).catch(
        async (error: unknown): Promise<never> => {
          // A request written to a server that died fails (EPIPE) before its exit is known; the exit is
          // the cause, and `crashed` reports it once the session ends (bounded: see `wire`).
          if (error instanceof ResponseError && error.code === ErrorCodes.MessageWriteError)
            await Promise.race([this.ended, delay(pipeErrorExitWaitMs + 1_000, undefined, { ref: false })]);
          // The connection rejects pending requests as it is disposed, a tick before `crashed` fires.
          if (this.exitValue !== undefined) throw this.endedError(method);
          if (error instanceof ResponseError) {
            throw new ToolError({
              code: "unavailable",
              message: `Language server \`${this.spec.id}\` answered \`${method}\` with error ${error.code}: ${error.message}. Check the file and position, or call \`lsp\` with \`op\` \`status\`.`,
              cause: error,
            });
          }
          throw error;
        },
      );
      return await Promise.race([answer, aborted, crashed]);
    } finally {
      signal.removeEventListener("abort", onAbort!);
      this.endedSignal.removeEventListener("abort", onEnd!);
      source.dispose();
    }
  }

  /**
   * `ContentModified` means the server's state changed while it worked on the request (a document
   * sync or project load in between): the answer is not wrong, only late, so ask again, a few times.
   */
  private async sendRetryingContentModified<R>(
    method: string,
    send: SendRequest<R>,
    token: CancellationToken,
    signal: AbortSignal,
  ): Promise<R> {
    // `initialize` is bounded by the start's deadline and `shutdown` by the stop's grace.
    // A workspace-diagnostics stream is answered only when the workspace changes: waiting is its nature, not a hang.
    const watched =
      method !== InitializeRequest.method &&
      method !== ShutdownRequest.method &&
      method !== WorkspaceDiagnosticRequest.method
        ? this.watchdog
        : undefined;
    for (let retry = 0; ; retry += 1) {
      try {
        const sent = send(this.connection, token);
        return await (watched === undefined ? sent : watched.watch(method, sent));
      } catch (error) {
        const modified = error instanceof ResponseError && error.code === LSPErrorCodes.ContentModified;
        if (!modified || retry >= contentModifiedRetries || signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, contentModifiedDelayMs));
      }
    }
  }

  /** Send a notification (dropped once the session ended; a write to a dead pipe is not an error here). */
  notify(send: (connection: ProtocolConnection) => Promise<void>): void {
    if (this.exitValue !== undefined) return;
    try {
      void send(this.connection).catch(() => undefined);
    } catch {
      // A connection that is closing throws at once rather than rejecting; the exit that follows is what gets reported.
    }
  }

  /**
   * Stop the server: `shutdown` and `exit` when it is healthy (bounded by `graceMs`), then SIGTERM and
   * SIGKILL to its whole process group. Resolves when nothing of it runs any more.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.exitValue === undefined && graceMs > 0) {
      await this.request(
        ShutdownRequest.method,
        (connection, token) => connection.sendRequest(ShutdownRequest.type, token),
        AbortSignal.timeout(graceMs),
      ).then(
        () => this.notify((connection) => connection.sendNotification(ExitNotification.type)),
        () => undefined,
      );
      await this.process.waitForExit(graceMs);
    }
    await this.process.stop({ graceMs });
    await this.ended;
  }

  /** The error for a call about `method` once the session ended: a crash (`unavailable`) or a stop (`cancelled`). */
  endedError(method: string): ToolError {
    const exit = this.exitValue!;
    if (exit.unresponsive !== undefined && !exit.expected)
      return this.unresponsiveError(exit.unresponsive, method, exit.stderr);
    if (exit.expected) {
      return new ToolError({
        code: "cancelled",
        message: `Language server \`${this.spec.id}\` was stopped (${exit.reason}) before it answered \`${method}\`. Call again to start it anew.`,
      });
    }
    return new ToolError({
      code: "unavailable",
      message: `Language server \`${this.spec.id}\` for \`${this.shownRoot}\` ${exit.reason} while answering \`${method}\`, so this call has no answer.${this.exitNote}${LanguageServerSession.stderrNote(exit.stderr)}`,
    });
  }

  private unresponsiveError(hung: HungRequest, method: string, stderr: readonly string[]): ToolError {
    const what =
      hung.method === method
        ? `\`${method}\` got no answer`
        : `\`${hung.method}\` got no answer, so \`${method}\` was not answered either`;
    return new ToolError({
      code: "unavailable",
      message: `Language server \`${this.spec.id}\` for \`${this.shownRoot}\` is unresponsive: ${what} within ${describeBound(hung.boundMs)} (time it spent reporting \`$/progress\` work not counted), so it was stopped, its process group killed, and this call has no answer.${this.exitNote}${LanguageServerSession.stderrNote(stderr)}`,
    });
  }

  /** The watchdog found a request unanswered past the bound: end the session now, then kill what is left of it. */
  private hung(request: HungRequest): void {
    if (this.stopping || this.exitValue !== undefined) return;
    this.finish(`did not answer \`${request.method}\` within ${describeBound(request.boundMs)}`, request);
    void this.process.stop({ graceMs: 0 });
  }

  private finish(reason: string, unresponsive?: HungRequest): void {
    if (this.exitValue !== undefined) return;
    this.watchdog?.dispose();
    this.exitValue = {
      reason,
      expected: this.stopping,
      stderr: this.stderrTail(),
      ...(unresponsive === undefined ? {} : { unresponsive }),
    };
    this.exitNote = this.onExit(this.exitValue);
    this.endSession(this.exitValue);
    this.endController.abort();
    this.connection.dispose();
  }

  private wire(): void {
    const connection = this.connection;
    void this.process.exit.then((exit) => this.finish(describeExit(exit)));
    connection.onError(([error]) => {
      if (this.exitValue !== undefined) return;
      if (isPipeError(error)) {
        // A write to a server that died fails (EPIPE) before its exit is reported (runtime-kit reports
        // it once the whole group is gone): the exit is the cause, so wait for it (issue 22, item 5).
        this.pipeFailed = true;
        void this.process.waitForExit(pipeErrorExitWaitMs).then((exit) => {
          if (exit !== undefined) return this.finish(describeExit(exit));
          this.finish(`closed its input without exiting (${error.message}) and was stopped`);
          void this.process.stop({ graceMs: 0 });
        });
        return;
      }
      // A framing or parse error means the stream is no longer JSON-RPC; nothing after it can be trusted.
      this.finish(`sent output that is not JSON-RPC (${error.message})`);
      void this.process.stop({ graceMs: 0 });
    });
    connection.onClose(() => {
      // After a failed write the pipe's handler above waits for the exit, and stops the server only if
      // none comes: stopping it here would make our own SIGTERM the reason.
      if (this.exitValue === undefined && !this.pipeFailed) void this.process.stop({ graceMs: 500 });
    });
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => settingsSection(this.settings, item.section)),
    );
    connection.onRequest(RegistrationRequest.type, (params) => {
      for (const registration of params.registrations) this.registrations.set(registration.id, registration);
    });
    connection.onRequest(UnregistrationRequest.type, (params) => {
      for (const unregistration of params.unregisterations) this.registrations.delete(unregistration.id);
    });
    // Accepting the token is all a client does; the progress itself arrives through `$/progress`.
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    connection.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: pathToFileURL(this.root).href, name: this.root }]);
    connection.onRequest(ShowMessageRequest.type, () => null);
    // We advertise pull diagnostics, so servers may ask us to re-pull; pyright exits with code 1 when
    // this request is refused. Pulls happen per call anyway, so accepting is enough.
    connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);
    connection.onNotification("$/progress", (params: { token: string | number; value: unknown }) => {
      // This handler replaces the connection's own progress dispatch, so partial results of a request (a workspace-diagnostics stream) are routed here.
      const partial = this.partialResultHandlers.get(params.token);
      if (partial !== undefined) return partial(params.value);
      this.progressObservers.get(params.token)?.(params.value);
      this.progress.update(params.token, params.value);
      this.watchdog?.progress(params.token, params.value);
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => this.published.record(params));
    // Some servers (pyright) report their failures only here, never on stderr.
    connection.onNotification(LogMessageNotification.type, (params) =>
      this.log.push(`${typeof params.message === "string" ? params.message : ""}\n`),
    );
    connection.listen();
  }

  private async initialize(settings: SessionSettings): Promise<void> {
    const rootUri = pathToFileURL(settings.root).href;
    const initializationOptions =
      (await settings.spec.initializationOptions?.({
        root: settings.root,
        workdir: settings.workdir,
        trusted: settings.trusted ?? true,
        program: settings.binary,
      })) ?? {};
    const params = {
      // A server exits soon after start when this pid does not exist where it runs (a sandbox's own
      // PID namespace): there it is null, and the session's end stops the server instead.
      processId: (settings.placement ?? hostPlacement).kind === "sandbox" ? null : process.pid,
      clientInfo: { name: "runbound" },
      rootUri,
      rootPath: settings.root,
      workspaceFolders: [{ uri: rootUri, name: settings.root }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions,
    };
    const result = await this.request(
      InitializeRequest.method,
      (connection, token) => connection.sendRequest(InitializeRequest.type, params, token),
      settings.signal,
    );
    if (
      result === null ||
      typeof result !== "object" ||
      typeof result.capabilities !== "object" ||
      result.capabilities === null
    ) {
      throw new ToolError({
        code: "unavailable",
        message: `Language server \`${settings.spec.id}\` answered \`initialize\` without capabilities, which is not an LSP server's answer. Check that \`${settings.binary}\` is the right program.`,
      });
    }
    this.capabilitiesValue = result.capabilities;
    this.encodingValue = negotiatedEncoding(result.capabilities.positionEncoding);
    this.notify((connection) => connection.sendNotification(InitializedNotification.type, {}));
  }
}
