import {
  createRestartBudget,
  displayPath,
  findNearestMarker,
  hostPlacement,
  readGroupResidentMemoryKiB,
  signalWithDeadline,
  untilAborted,
  type Placement,
  type RestartBudget,
} from "@runbound/runtime-kit";
import { defineResource, ToolError } from "@runbound/tool-kit";
import { dirname } from "node:path";
import { DEFAULT_AFTER_WRITE_BUDGET, type AfterWriteBudget } from "./after-write-budget.js";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { startAffectedFilesTracking } from "./affected-files-tracking.js";
import { DiagnosticsLedger } from "./diagnostics-ledger.js";
import { TRUSTED_PROJECT, type ProjectTrust } from "./project-trust.js";
import { resolveBinary, type BinaryResolution } from "./resolve-binary.js";
import { LanguageServerSession, type SessionExit } from "./language-server-session.js";
import { describeUnroutable, routeFile, serverForFile, type FileRoute } from "./route-file.js";
import type { ActiveProgress } from "./progress-tracker.js";
import { describeBound, type HungRequest } from "./request-watchdog.js";
import type { LspServerSpec } from "./server-spec.js";
import { serverSandboxNeeds } from "./server-sandbox-needs.js";

/** What a caller that stops waiting for a shared server start is told: the start goes on for the others. */
function startWaitMessages(label: string): { timeout: string; cancelled: string } {
  return {
    timeout: `${label} took longer than this call's budget; it goes on in the background. Call again in a moment, or check \`lsp\` \`status\`.`,
    cancelled: `${label} was still going on when this call was cancelled; it goes on in the background.`,
  };
}

/** Starts are bounded by their own deadline only (see `startTimeoutMs`). */
const neverAborted = new AbortController().signal;

/** Settings of {@link createLspSupervisor}. */
export interface LspSupervisorSettings {
  /** The server table; default {@link DEFAULT_SERVERS}. */
  servers?: readonly LspServerSpec[];
  /** A server unused this long is stopped (it starts again on the next call); default 30 minutes. */
  idleMs?: number;
  /** Crashes within `restartWindowMs` after which a server is broken; default 3. */
  restartLimit?: number;
  /** The crash window; default 5 minutes. */
  restartWindowMs?: number;
  /** Searched for programs after the project-local bin directories; default the `PATH` of `env`. */
  pathVariable?: string;
  /** The servers' environment; default this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether programs inside the workdir may run: the project's `node_modules/.bin`, `.venv/bin` and
   * `venv/bin`, and PATH entries pointing into the workdir, for servers and project checkers alike.
   * Default trusted. A host serving a caller that must not run the checkout's code (plan mode, a
   * read-only subagent) passes `{ trusted: false, howToTrust: "…" }`: those programs are passed over
   * (PATH's are used), and `status` and "not found" errors name them with `howToTrust`.
   */
  projectTrust?: ProjectTrust;
  /** How long a server gets to shut down before its process group is killed; default 1 000 ms. */
  stopGraceMs?: number;
  /**
   * How long a server gets to start and answer `initialize`; default 60 000 ms. The start belongs to
   * the supervisor, not to the call that caused it: a cancelled call leaves it warming for the next.
   */
  startTimeoutMs?: number;
  /** How long diagnostics on write wait for the servers; default 2.5 s, plus 10 s for a server that must start first. */
  afterWrite?: Partial<AfterWriteBudget>;
  /**
   * A request left unanswered this long makes the server unresponsive; default 15 000 ms. The clock
   * runs from the request until any answer (a cancelled request is owed one too), and only while the
   * server reports no `$/progress` work: indexing pauses it, and when the last work ends every waiting
   * request gets the full bound again. An unresponsive server is stopped (its process group killed),
   * the request fails with `unavailable`, and it counts against the restart budget like a crash.
   * `initialize` has `startTimeoutMs` instead, and a start that runs out of it counts the same way.
   */
  unresponsiveMs?: number;
  /**
   * Where the servers and the project checkers run; default the host. A sandbox (the host decides:
   * `createBubblewrapPlacement`) shows them the workdir and the toolchain they need read-only, no
   * secrets and no network; the project's own programs (a trusted project's `node_modules/.bin`) run
   * there too.
   */
  placement?: Placement;
}

/** One (server, root) pair the supervisor knows, and what state it is in. */
export interface ServerEntryStatus {
  /** The server's id. */
  server: string;
  /** The project root, relative to the workdir. */
  root: string;
  /** `starting`, `running`, `indexing`, `stopped`, `crashed`, `unresponsive` (stopped for a request it left unanswered; starts again on the next call) or `broken`. */
  state: "starting" | "running" | "indexing" | "stopped" | "crashed" | "unresponsive" | "broken";
  /** One line with the details (pid, memory, progress, crash reason, stderr). */
  detail: string;
  /** The process id while one runs. */
  pid?: number;
  /** The resident memory of its process group (the server and its helpers) in KiB, when known. */
  rssKiB?: number;
}

/** The language-server supervisor a run owns; see {@link createLspSupervisor}. */
export interface LspSupervisorInstance {
  /** The server table. */
  readonly servers: readonly LspServerSpec[];
  /** The environment servers (and the project checkers) run with. */
  readonly env: NodeJS.ProcessEnv;
  /** Where servers and checkers run. */
  readonly placement: Placement;
  /** Whether the project's own programs may run (see {@link LspSupervisorSettings.projectTrust}). */
  readonly projectTrust: ProjectTrust;
  /** What the model has been told about each file's diagnostics in this run (one supervisor per run). */
  readonly ledger: DiagnosticsLedger;
  /** How long diagnostics on write wait (see {@link LspSupervisorSettings.afterWrite}). */
  readonly afterWriteBudget: AfterWriteBudget;
  /** Which server and root `file` (absolute, inside `workdir`) would use. Starts nothing. */
  route(workdir: string, file: string): Promise<FileRoute>;
  /** Where a server's program would be found for `root` (project-local when trusted, then PATH). Starts nothing. */
  findProgram(spec: LspServerSpec, root: string, workdir: string): Promise<BinaryResolution>;
  /**
   * The running session for `file`, started (once per server and root) if needed; `signal` bounds
   * only this caller's wait, never the start itself. @throws ToolError `unavailable` saying what is
   * missing or broken, `timeout`/`cancelled` when `signal` ends the wait.
   */
  sessionFor(workdir: string, file: string, signal: AbortSignal): Promise<LanguageServerSession>;
  /** Every (server, root) known so far with its state. Starts nothing. */
  entries(workdir: string): Promise<ServerEntryStatus[]>;
  /** The sessions running now. */
  running(): LanguageServerSession[];
  /** Call `listener` for the progress of every server, running or started later, first with the work in progress now. @returns a function that stops listening. */
  listenProgress(listener: (server: string, progress: ActiveProgress) => void): () => void;
  /** Stop the server for `file`'s root, forget its crashes, and start it again. */
  reload(workdir: string, file: string, signal: AbortSignal): Promise<LanguageServerSession>;
  /** Stop every server and kill their process groups. Later calls answer `unavailable`. */
  dispose(): Promise<void>;
}

/** The key tools use to reach the supervisor. */
export const LspSupervisor = defineResource<LspSupervisorInstance>(
  "lsp.supervisor",
  "Language servers for the run's workdir (typescript-language-server, pyright, gopls, rust-analyzer, clangd, dart), one process per project root, started on first use.",
);

interface ServerEntry {
  spec: LspServerSpec;
  root: string;
  budget: RestartBudget;
  session?: LanguageServerSession;
  starting?: Promise<LanguageServerSession>;
  lastExit?: SessionExit;
  broken?: string;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  stoppedForIdle?: boolean;
}

/** A wall-clock time for status lines, e.g. `03:41:12`. */
function clockTime(at: number): string {
  return new Date(at).toTimeString().slice(0, 8);
}

/** The longest delay a Node timer keeps; a larger one fires at once. */
const maxTimerMs = 2_147_483_647;

function minutes(ms: number): string {
  const value = ms / 60_000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${value === 1 ? "minute" : "minutes"}`;
}

/**
 * Create the supervisor: it routes a file to the nearest project root of its language (never the
 * workdir as a fallback), resolves the server program project-local first, starts one process per
 * (server, root) on first use, restarts a crashed one on the next call within a budget (then calls it
 * broken, with the reason and its last stderr lines), stops idle ones, and kills everything on dispose.
 */
export function createLspSupervisor(settings: LspSupervisorSettings = {}): LspSupervisorInstance {
  const servers = settings.servers ?? DEFAULT_SERVERS;
  const env = settings.env ?? process.env;
  const placement = settings.placement ?? hostPlacement;
  const pathVariable = settings.pathVariable ?? env["PATH"] ?? "";
  const projectTrust = Object.freeze({ ...(settings.projectTrust ?? TRUSTED_PROJECT) });
  const idleMs = settings.idleMs ?? 30 * 60_000;
  const stopGraceMs = settings.stopGraceMs ?? 1_000;
  const startTimeoutMs = settings.startTimeoutMs ?? 60_000;
  const unresponsiveMs = settings.unresponsiveMs ?? 15_000;
  if (!(unresponsiveMs > 0 && unresponsiveMs <= maxTimerMs)) {
    throw new RangeError(
      `\`unresponsiveMs\` \`${unresponsiveMs}\` is not valid; give a positive number of milliseconds up to ${maxTimerMs} (about 24 days), e.g. 15000.`,
    );
  }
  const entries = new Map<string, ServerEntry>();
  const progressListeners = new Set<(server: string, progress: ActiveProgress) => void>();
  // Unresponsive sessions being killed: no entry holds them any more, but dispose waits for them.
  const retiring = new Set<Promise<void>>();
  let disposed = false;

  const entryFor = (spec: LspServerSpec, root: string): ServerEntry => {
    const key = `${spec.id}\0${root}`;
    let entry = entries.get(key);
    if (entry === undefined) {
      entry = {
        spec,
        root,
        budget: createRestartBudget({
          limit: settings.restartLimit ?? 3,
          windowMs: settings.restartWindowMs ?? 5 * 60_000,
        }),
        lastUsed: Date.now(),
      };
      entries.set(key, entry);
    }
    return entry;
  };

  const scheduleIdleStop = (entry: ServerEntry): void => {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      const session = entry.session;
      if (session === undefined) return;
      if (Date.now() - entry.lastUsed < idleMs) return scheduleIdleStop(entry);
      entry.stoppedForIdle = true;
      entry.session = undefined;
      void session.stop(stopGraceMs);
    }, idleMs);
    entry.idleTimer.unref();
  };

  const retire = (session: LanguageServerSession): void => {
    const stopped = session.stop(0);
    retiring.add(stopped);
    void stopped.finally(() => retiring.delete(stopped));
  };

  /** Count a hang against the budget; @returns the sentence for the failed call. */
  const recordHang = (
    entry: ServerEntry,
    exit: SessionExit & { unresponsive: HungRequest },
    setting: string,
  ): string => {
    entry.lastExit = exit;
    const window = minutes(entry.budget.windowMs);
    const limit = entry.budget.limit;
    const slow = `raise \`${setting}\` (now ${exit.unresponsive.boundMs} ms) if the server is merely slow`;
    if (entry.budget.recordCrash()) {
      return ` It starts again on the next call (${entry.budget.crashes()} of ${limit} crashes or hangs within ${window}; at ${limit} it is broken); ${slow}.`;
    }
    entry.broken = `it ${exit.reason} (unresponsive since ${clockTime(exit.unresponsive.at)}), with ${entry.budget.crashes()} crashes or hangs within ${window}`;
    return ` That is ${entry.budget.crashes()} crashes or hangs within ${window}, so it is now broken and will not be restarted; fix the cause (or ${slow}), then call \`lsp\` with \`op\` \`reload\` for a file of this project.`;
  };

  const onExit = (entry: ServerEntry, session: LanguageServerSession | undefined, exit: SessionExit): string => {
    if (session !== undefined && entry.session === session) entry.session = undefined;
    if (exit.expected) return "";
    if (exit.unresponsive !== undefined) {
      if (session !== undefined) retire(session);
      return recordHang(entry, { ...exit, unresponsive: exit.unresponsive }, "unresponsiveMs");
    }
    entry.lastExit = exit;
    const window = minutes(entry.budget.windowMs);
    if (entry.budget.recordCrash()) {
      return ` It starts again on the next call (crash ${entry.budget.crashes()}; ${entry.budget.limit} within ${window} make it broken).`;
    }
    entry.broken = `it ${exit.reason}, with ${entry.budget.crashes()} crashes within ${window}`;
    return ` That is ${entry.budget.crashes()} crashes within ${window}, so it is now broken and will not be restarted; fix the cause, then call \`lsp\` with \`op\` \`reload\` for a file of this project.`;
  };

  const start = (entry: ServerEntry, workdir: string, binary: string): Promise<LanguageServerSession> => {
    entry.starting ??= (async () => {
      const deadline = signalWithDeadline(neverAborted, startTimeoutMs);
      let startExit: SessionExit | undefined;
      try {
        // The exit hook can fire before `start` returns (a crash during initialize), so it reads the session through this holder.
        const holder: { session?: LanguageServerSession } = {};
        const session = await LanguageServerSession.start({
          spec: entry.spec,
          root: entry.root,
          workdir,
          trusted: projectTrust.trusted,
          binary,
          env,
          ...(placement.kind === "sandbox"
            ? {
                placement,
                sandboxNeeds: await serverSandboxNeeds({
                  serverId: entry.spec.id,
                  program: binary,
                  root: entry.root,
                  workdir,
                  env,
                }),
              }
            : {}),
          signal: deadline.signal,
          onExit: (exit) => {
            startExit = exit;
            return onExit(entry, holder.session, exit);
          },
          onProgress: (progress) => {
            for (const listener of progressListeners) listener(entry.spec.id, progress);
          },
          unresponsiveMs,
        });
        holder.session = session;
        startAffectedFilesTracking(session);
        if (disposed) {
          await session.stop(0);
          throw unavailableAfterDispose();
        }
        entry.session = session;
        entry.stoppedForIdle = false;
        return session;
      } catch (error) {
        // A server that never answers `initialize` would cost every call the whole start bound, forever.
        if (deadline.signal.aborted && !disposed) throw hungDuringStart(entry, workdir, startExit?.stderr ?? [], error);
        throw error;
      } finally {
        deadline.dispose();
        entry.starting = undefined;
      }
    })();
    return entry.starting;
  };

  const hungDuringStart = (entry: ServerEntry, workdir: string, stderr: string[], cause: unknown): ToolError => {
    const unresponsive: HungRequest = { method: "initialize", boundMs: startTimeoutMs, at: Date.now() };
    const note = recordHang(
      entry,
      {
        reason: `did not answer \`initialize\` within ${describeBound(startTimeoutMs)}`,
        expected: false,
        stderr,
        unresponsive,
      },
      "startTimeoutMs",
    );
    return new ToolError({
      code: "unavailable",
      message: `Language server \`${entry.spec.id}\` for \`${displayPath(workdir, entry.root)}\` is unresponsive: \`initialize\` got no answer within ${describeBound(startTimeoutMs)}, so it was stopped, its process group killed.${note}${LanguageServerSession.stderrNote(stderr)}`,
      cause,
    });
  };

  const unavailableAfterDispose = (): ToolError =>
    new ToolError({
      code: "unavailable",
      message: "The language-server supervisor was disposed with its run; no server starts any more. Open a new run.",
    });

  const brokenError = (entry: ServerEntry, workdir: string): ToolError =>
    new ToolError({
      code: "unavailable",
      message: `Language server \`${entry.spec.id}\` for \`${displayPath(workdir, entry.root)}\` is broken: ${entry.broken}.${LanguageServerSession.stderrNote(entry.lastExit?.stderr ?? [])} Fix the cause, then call \`lsp\` with \`op\` \`reload\` and a file of this project to try again.`,
    });

  const hangClause = (hung: HungRequest): string =>
    `\`${hung.method}\` got no answer in ${describeBound(hung.boundMs)}`;
  const budgetClause = (entry: ServerEntry): string =>
    `${entry.budget.crashes()} of ${entry.budget.limit} crashes or hangs within ${minutes(entry.budget.windowMs)}`;

  const readyRoute = async (workdir: string, file: string): Promise<Extract<FileRoute, { kind: "ready" }>> => {
    const route = await routeFile(servers, workdir, file, pathVariable, env, projectTrust);
    if (route.kind !== "ready")
      throw new ToolError({
        code: "unavailable",
        message: describeUnroutable(route, workdir, displayPath(workdir, file), servers),
      });
    return route;
  };

  /**
   * The session already running for the file's server and root, found without resolving the program
   * again (stats over every PATH entry on each call): the process it started from keeps running.
   */
  const runningSessionFor = async (workdir: string, file: string): Promise<LanguageServerSession | undefined> => {
    const match = serverForFile(servers, file);
    const found =
      match === undefined ? undefined : await findNearestMarker(dirname(file), workdir, match.spec.rootMarkers);
    const entry = found === undefined ? undefined : entries.get(`${match!.spec.id}\0${found.directory}`);
    if (disposed || entry?.session === undefined || entry.broken !== undefined) return undefined;
    entry.lastUsed = Date.now();
    scheduleIdleStop(entry);
    return entry.session;
  };

  const sessionOf = async (
    workdir: string,
    route: Extract<FileRoute, { kind: "ready" }>,
    signal: AbortSignal,
  ): Promise<LanguageServerSession> => {
    if (disposed) throw unavailableAfterDispose();
    const entry = entryFor(route.spec, route.root);
    entry.lastUsed = Date.now();
    if (entry.broken !== undefined) throw brokenError(entry, workdir);
    const session =
      entry.session ??
      (await untilAborted(
        start(entry, workdir, route.binary),
        signal,
        startWaitMessages(`Starting language server \`${route.spec.id}\` for \`${displayPath(workdir, route.root)}\``),
      ));
    scheduleIdleStop(entry);
    return session;
  };

  return {
    servers,
    env,
    placement,
    projectTrust,
    ledger: new DiagnosticsLedger(),
    afterWriteBudget: Object.freeze({ ...DEFAULT_AFTER_WRITE_BUDGET, ...settings.afterWrite }),
    route: (workdir, file) => routeFile(servers, workdir, file, pathVariable, env, projectTrust),
    findProgram: (spec, root, workdir) =>
      resolveBinary(spec.server.command, root, workdir, pathVariable, env, projectTrust),
    async sessionFor(workdir, file, signal) {
      return (await runningSessionFor(workdir, file)) ?? sessionOf(workdir, await readyRoute(workdir, file), signal);
    },
    async entries(workdir) {
      return Promise.all(
        [...entries.values()].map(async (entry): Promise<ServerEntryStatus> => {
          const base = { server: entry.spec.id, root: displayPath(workdir, entry.root) };
          const session = entry.session;
          if (entry.broken !== undefined)
            return {
              ...base,
              state: "broken",
              detail: `${entry.broken}.${LanguageServerSession.stderrNote(entry.lastExit?.stderr ?? [])} \`reload\` tries again.`,
            };
          const hung = entry.lastExit?.unresponsive;
          // While the window still counts the hang, a restarted server says so: it may hang again.
          const restarted =
            hung !== undefined && entry.budget.crashes() > 0
              ? `; restarted after it was unresponsive at ${clockTime(hung.at)} (${hangClause(hung)}; ${budgetClause(entry)})`
              : "";
          if (session !== undefined) {
            const rssKiB = await readGroupResidentMemoryKiB(session.pid);
            const memory = rssKiB === undefined ? "" : `, RSS ${Math.round(rssKiB / 1024)} MiB`;
            const work = session.progress.current();
            const uptime = `up ${Math.round((Date.now() - session.startedAt) / 1000)} s`;
            const facts = { pid: session.pid, ...(rssKiB === undefined ? {} : { rssKiB }) };
            if (work.length > 0) {
              const what = work
                .map(
                  (item) =>
                    `${item.title}${item.message === undefined ? "" : `: ${item.message}`}${item.percentage === undefined ? "" : ` (${item.percentage}%)`}`,
                )
                .join("; ");
              return {
                ...base,
                ...facts,
                state: "indexing",
                detail: `pid ${session.pid}${memory}, ${uptime}; ${what}; answers may be partial until it finishes${restarted}.`,
              };
            }
            return {
              ...base,
              ...facts,
              state: "running",
              detail: `pid ${session.pid}${memory}, ${uptime}, position encoding ${session.positionEncoding}${restarted}.`,
            };
          }
          if (entry.starting !== undefined)
            return { ...base, state: "starting", detail: `starting; the first answer waits for it${restarted}.` };
          if (entry.stoppedForIdle === true)
            return {
              ...base,
              state: "stopped",
              detail: `stopped after ${minutes(idleMs)} unused; starts again on the next call${restarted}.`,
            };
          if (hung !== undefined) {
            return {
              ...base,
              state: "unresponsive",
              detail: `unresponsive since ${clockTime(hung.at)}: ${hangClause(hung)}; its process group was killed and it starts again on the next call (${budgetClause(entry)}; at ${entry.budget.limit} it is broken).${LanguageServerSession.stderrNote(entry.lastExit?.stderr ?? [])}`,
            };
          }
          if (entry.lastExit !== undefined) {
            return {
              ...base,
              state: "crashed",
              detail: `crashed(${entry.budget.crashes()}): it ${entry.lastExit.reason}; starts again on the next call.${LanguageServerSession.stderrNote(entry.lastExit.stderr)}`,
            };
          }
          return { ...base, state: "stopped", detail: "stopped; starts again on the next call." };
        }),
      );
    },
    listenProgress(listener) {
      progressListeners.add(listener);
      // A call that starts while a server is already indexing hears where it is now, not only the
      // reports that happen to come during the call: a long index may report once a minute.
      for (const entry of entries.values()) {
        for (const progress of entry.session?.progress.current() ?? []) listener(entry.spec.id, progress);
      }
      return () => void progressListeners.delete(listener);
    },
    running: () => [...entries.values()].flatMap((entry) => (entry.session === undefined ? [] : [entry.session])),
    async reload(workdir, file, signal) {
      const route = await readyRoute(workdir, file);
      const entry = entryFor(route.spec, route.root);
      const old = entry.session ?? (await entry.starting?.catch(() => undefined));
      entry.session = undefined;
      await old?.stop(stopGraceMs);
      entry.budget.reset();
      entry.broken = undefined;
      entry.lastExit = undefined;
      return sessionOf(workdir, route, signal);
    },
    async dispose() {
      disposed = true;
      const stopping = [...entries.values()].map(async (entry) => {
        clearTimeout(entry.idleTimer);
        const session = entry.session ?? (await entry.starting?.catch(() => undefined));
        entry.session = undefined;
        await session?.stop(stopGraceMs);
      });
      await Promise.allSettled([...stopping, ...retiring]);
    },
  };
}
