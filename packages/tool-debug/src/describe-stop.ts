import type { DebugProtocol } from "@vscode/debugprotocol";
import { cutText, displayPath, isInside, joinWithinBudget } from "@runbound/runtime-kit";
import type { DebugSession, StopEvent } from "./debug-session.js";
import { formatLocals, frameLocals, STOP_LOCALS, type FrameLocals } from "./frame-locals.js";
import { readableFrameName } from "./readable-frame-name.js";
import { sourceLines } from "./source-line.js";

/** A stop as the tool reports it: reason, where, the source line, the exception. */
export interface StopView {
  reason: string;
  thread_id?: number;
  description?: string;
  function?: string;
  file?: string;
  line?: number;
  source_line?: string;
  /** The source line and two lines either side. */
  source_context?: Array<{ line: number; text: string }>;
  frame_id?: number;
  /** The top frame's locals (first 20, values ≤ 200 characters, pointers to structs expanded one level). */
  locals?: FrameLocals;
  exception?: { id: string; description?: string; type?: string; message?: string };
}

/** The thread a request without `thread_id` means: the one that stopped last, else the first. */
export async function defaultThread(session: DebugSession): Promise<number> {
  if (session.lastStop?.threadId !== undefined) return session.lastStop.threadId;
  const response = await session.request<DebugProtocol.ThreadsResponse>("threads", {});
  const first = response.body?.threads[0];
  return first?.id ?? 1;
}

/** Where the debuggee stopped, with the source line and, when stopped on one, the exception. */
export async function describeStop(session: DebugSession, stop: StopEvent, workdir: string): Promise<StopView> {
  const view: StopView = {
    reason: stop.reason,
    ...(stop.description === undefined ? {} : { description: stop.description }),
  };
  // Missing threadId (delve, JDI): ask for the threads and take the first (research/debug.md §6.1).
  const threadId = stop.threadId ?? (await defaultThread(session).catch(() => undefined));
  if (threadId === undefined) return view;
  view.thread_id = threadId;
  const trace = await session
    .request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId, startFrame: 0, levels: 1 })
    .catch(() => undefined);
  const frame = trace?.body?.stackFrames[0];
  if (frame !== undefined) {
    view.function = readableFrameName(frame.name);
    view.frame_id = frame.id;
    view.line = frame.line;
    if (frame.source?.path !== undefined)
      view.file = isInside(workdir, frame.source.path) ? displayPath(workdir, frame.source.path) : frame.source.path;
    // Dependency files the caller set breakpoints in are read too (read-only access to dependency code).
    const context = sourceLines(workdir, frame.source?.path, frame.line, 2, new Set(session.breakpoints.keys()));
    const text = context?.find((row) => row.line === frame.line)?.text;
    if (text !== undefined) view.source_line = text;
    if (context !== undefined && context.length > 1) view.source_context = context;
  }
  // The locals in the same answer, so a stop needs no stack → scopes → variables round trips.
  const locals =
    frame === undefined ? undefined : await frameLocals(session, frame.id, STOP_LOCALS).catch(() => undefined);
  if (locals !== undefined && locals.total > 0) view.locals = locals;
  if (stop.reason === "exception" && session.capabilities.supportsExceptionInfoRequest === true) {
    const info = await session
      .request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", { threadId })
      .catch(() => undefined);
    if (info?.body !== undefined) {
      view.exception = {
        id: info.body.exceptionId,
        ...(info.body.description === undefined ? {} : { description: cutText(info.body.description, 400).text }),
        ...(info.body.details?.typeName === undefined ? {} : { type: info.body.details.typeName }),
        ...(info.body.details?.message === undefined ? {} : { message: cutText(info.body.details.message, 400).text }),
      };
    }
  }
  return view;
}

/** The stop as lines of text. */
export function formatStop(view: StopView): string {
  const where =
    view.file === undefined
      ? ""
      : ` at ${view.function === undefined ? "" : `${view.function} `}${view.file}:${view.line}`;
  const lines = [
    `Stopped (${view.reason}${view.description !== undefined && view.description !== view.reason ? `: ${view.description}` : ""}) in thread ${view.thread_id ?? "?"}${where}${view.frame_id === undefined ? "" : ` [frame_id ${view.frame_id}]`}.`,
  ];
  if (view.source_context !== undefined) {
    const width = String(view.source_context.at(-1)!.line).length;
    for (const row of view.source_context)
      lines.push(`${row.line === view.line ? "→" : " "} ${String(row.line).padStart(width)} | ${row.text}`);
  } else if (view.source_line !== undefined) lines.push(`  ${view.line} | ${view.source_line}`);
  if (view.exception !== undefined) {
    lines.push(
      `Exception ${view.exception.type ?? view.exception.id}: ${view.exception.message ?? view.exception.description ?? ""}`.trimEnd(),
    );
  }
  if (view.locals !== undefined) {
    // At most 6 KB of locals, so a stop answer stays well inside the 16 KB of any answer.
    const rows = formatLocals(view.locals);
    const joined = joinWithinBudget(rows, 6 * 1024);
    lines.push(
      `Locals (${view.locals.scopes.join(", ")}):`,
      joined.text,
      ...(joined.shown < rows.length
        ? [`  … ${rows.length - joined.shown} more line(s) of locals not shown (op \`locals\`).`]
        : []),
    );
  }
  return lines.join("\n");
}
