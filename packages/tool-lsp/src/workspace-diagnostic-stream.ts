import { ToolError } from "@runbound/tool-kit";
import { ErrorCodes, ResponseError } from "vscode-jsonrpc/node";
import {
  WorkspaceDiagnosticRequest,
  type WorkspaceDocumentDiagnosticReport,
  type WorkspaceDiagnosticReportPartialResult,
} from "vscode-languageserver-protocol";
import { ConditionWatchers } from "./condition-watchers.js";
import {
  WORKSPACE_DIAGNOSTICS_PARTIAL_TOKEN as partialToken,
  WORKSPACE_DIAGNOSTICS_WORK_TOKEN as workToken,
} from "./workspace-diagnostic-tokens.js";
import type { LanguageServerSession } from "./language-server-session.js";

/** A stream the server answers at once (nothing to wait for, or an error) is asked again after this pause, growing. */
const firstRetryMs = 250;
const maxRetryMs = 10_000;

/**
 * A long-running `workspace/diagnostic` request with partial results, asked again whenever the server
 * answers it: pyright in `workspace` mode re-checks every file a change affects and reports each on
 * this stream, and reports how many files are left to analyze on its work-done token. Every report
 * becomes a publish in the session's {@link LanguageServerSession.published}, so the stream's files
 * are read like pushed ones; `analysing` and `endGeneration` tell when the server has caught up.
 */
export class WorkspaceDiagnosticStream {
  /** Whether the server said files are left to analyze and has not said it finished. */
  analysing = false;
  /** The publish generation when the server last said it finished analyzing. */
  endGeneration = -1;
  /** Whether the server finished its first analysis of the whole workspace (until then, dependents may be missed). */
  workspaceAnalysed = false;
  /** The server's last word on the analysis, e.g. `120 files to analyze`. */
  lastMessage: string | undefined;
  /** Whether the server refused the request: then nothing is learnt from it. */
  refused = false;
  /** Whether any report came: until one does, the stream says nothing about what the server re-checks. */
  delivered = false;
  /** When the last report of a file came (`Date.now()`): while reports keep coming, the server is checking files. */
  lastReportAt = 0;
  /** Document pulls sent and not answered yet: pyright reports their progress on this stream's work-done token. */
  private pullsAnswering = 0;
  /** The progress that came while a pull was being answered, with the publish generation when it came. */
  private readonly held: Array<{ value: unknown; generation: number }> = [];
  private readonly resultIds = new Map<string, string>();
  /** Per URI, the publish generation just before the report batch that last held it. */
  private readonly batchStarts = new Map<string, number>();
  private readonly watchers = new ConditionWatchers();

  constructor(private readonly session: LanguageServerSession) {
    session.partialResultHandlers.set(partialToken, (value) =>
      this.record((value as WorkspaceDiagnosticReportPartialResult | null)?.items),
    );
    session.progressObservers.set(workToken, (value) => this.progress(value));
  }

  /** Keep the request open until the session ends. */
  async run(): Promise<void> {
    let retryMs = firstRetryMs;
    const ended = this.session.endedSignal;
    while (!ended.aborted) {
      const started = Date.now();
      try {
        const report = await this.session.request(
          WorkspaceDiagnosticRequest.method,
          (connection, token) =>
            connection.sendRequest(
              WorkspaceDiagnosticRequest.type,
              {
                previousResultIds: [...this.resultIds].map(([uri, value]) => ({ uri, value })),
                partialResultToken: partialToken,
                workDoneToken: workToken,
              },
              token,
            ),
          ended,
        );
        this.record(report?.items);
      } catch (error) {
        if (ended.aborted) return;
        // A server without the request says so once; asking again would only repeat it.
        if (
          ToolError.isInstance(error) &&
          error.cause instanceof ResponseError &&
          error.cause.code === ErrorCodes.MethodNotFound
        ) {
          this.refused = true;
          this.watchers.wake();
          return;
        }
      }
      // A request answered at once (the server had nothing to wait for) must not turn into a busy loop.
      retryMs = Date.now() - started > maxRetryMs ? firstRetryMs : Math.min(maxRetryMs, retryMs * 2);
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
    }
  }

  /** The publish generation just before the batch that last reported `uri`: reports after it come from the same analysis or a later one. */
  batchStartOf(uri: string): number | undefined {
    return this.batchStarts.get(uri);
  }

  /** Wait until `done()` holds after some change, or `signal` aborts. @returns whether it held. */
  waitUntil(done: () => boolean, signal: AbortSignal): Promise<boolean> {
    return this.watchers.waitUntil(done, signal);
  }

  private record(items: readonly WorkspaceDocumentDiagnosticReport[] | undefined): void {
    if (!Array.isArray(items)) return;
    if (items.length > 0) {
      this.delivered = true;
      this.lastReportAt = Date.now();
    }
    const batchStart = this.session.published.generation();
    for (const item of items) {
      if (typeof item?.uri !== "string") continue;
      if (typeof item.resultId === "string") this.resultIds.set(item.uri, item.resultId);
      if (item.kind !== "full" || !Array.isArray(item.items)) continue;
      this.batchStarts.set(item.uri, batchStart);
      this.session.published.record({
        uri: item.uri,
        ...(typeof item.version === "number" ? { version: item.version } : {}),
        diagnostics: item.items,
      });
    }
    this.watchers.wake();
  }

  /**
   * Call before sending a document pull (`textDocument/diagnostic`) to this server, and the function
   * it returns once the pull was answered or failed. pyright reports each pull on this stream's
   * work-done token, the one its own re-check reports on: "1 file to analyze" when the pull starts and
   * an end just before its answer, even while its re-check still has files to go. That pair is not the
   * re-check's progress, so it is left out: the progress that came while pulls were answered is held,
   * each answer drops its own pair (the last report and end before it, and a begin just before that
   * report), and what is left is applied once no pull is being answered.
   */
  beginPull(): () => void {
    this.pullsAnswering += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.endPull();
    };
  }

  private endPull(): void {
    const last = this.held.length - 1;
    if (kindOf(this.held[last]?.value) === "end" && kindOf(this.held[last - 1]?.value) === "report")
      this.held.splice(kindOf(this.held[last - 2]?.value) === "begin" ? last - 2 : last - 1);
    this.pullsAnswering -= 1;
    if (this.pullsAnswering > 0) return;
    for (const { value, generation } of this.held.splice(0)) this.apply(value, generation);
    this.watchers.wake();
  }

  private progress(value: unknown): void {
    if (this.pullsAnswering > 0) this.held.push({ value, generation: this.session.published.generation() });
    else this.apply(value, this.session.published.generation());
    this.watchers.wake();
  }

  private apply(value: unknown, generation: number): void {
    const { message } = (value ?? {}) as { message?: unknown };
    const kind = kindOf(value);
    if (typeof message === "string" && message.length > 0) this.lastMessage = message;
    if (kind === "begin" || kind === "report") this.analysing = true;
    if (kind === "end") {
      this.analysing = false;
      this.workspaceAnalysed = true;
      this.endGeneration = generation;
    }
  }
}

/** The `kind` of a `$/progress` value (`begin`, `report`, `end`), or undefined. */
function kindOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as { kind?: unknown }).kind : undefined;
}
