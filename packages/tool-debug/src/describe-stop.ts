import { displayPath, isInside } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { cutText } from "./bounded-text.js";
import type { DebugSession, StopEvent } from "./debug-session.js";
import { readableFrameName } from "./readable-frame-name.js";
import { sourceLine } from "./source-line.js";

/** A stop as the tool reports it: reason, where, the source line, the exception. */
export interface StopView {
  reason: string;
  thread_id?: number;
  description?: string;
  function?: string;
  file?: string;
  line?: number;
  source_line?: string;
  frame_id?: number;
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
  const view: StopView = { reason: stop.reason, ...(stop.description === undefined ? {} : { description: stop.description }) };
  // Missing threadId (delve, JDI): ask for the threads and take the first (research/debug.md §6.1).
  const threadId = stop.threadId ?? (await defaultThread(session).catch(() => undefined));
  if (threadId === undefined) return view;
  view.thread_id = threadId;
  const trace = await session.request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId, startFrame: 0, levels: 1 }).catch(() => undefined);
  const frame = trace?.body?.stackFrames[0];
  if (frame !== undefined) {
    view.function = readableFrameName(frame.name);
    view.frame_id = frame.id;
    view.line = frame.line;
    if (frame.source?.path !== undefined) view.file = isInside(workdir, frame.source.path) ? displayPath(workdir, frame.source.path) : frame.source.path;
    const text = sourceLine(workdir, frame.source?.path, frame.line);
    if (text !== undefined) view.source_line = text;
  }
  if (stop.reason === "exception" && session.capabilities.supportsExceptionInfoRequest === true) {
    const info = await session.request<DebugProtocol.ExceptionInfoResponse>("exceptionInfo", { threadId }).catch(() => undefined);
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
  const where = view.file === undefined ? "" : ` at ${view.function === undefined ? "" : `${view.function} `}${view.file}:${view.line}`;
  const lines = [`Stopped (${view.reason}${view.description !== undefined && view.description !== view.reason ? `: ${view.description}` : ""}) in thread ${view.thread_id ?? "?"}${where}${view.frame_id === undefined ? "" : ` [frame_id ${view.frame_id}]`}.`];
  if (view.source_line !== undefined) lines.push(`  ${view.line} | ${view.source_line}`);
  if (view.exception !== undefined) {
    lines.push(`Exception ${view.exception.type ?? view.exception.id}: ${view.exception.message ?? view.exception.description ?? ""}`.trimEnd());
  }
  return lines.join("\n");
}
