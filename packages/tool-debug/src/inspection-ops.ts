import { textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { cutText, displayPath, isInside, joinWithinBudget } from "@runbound/runtime-kit";
import { defaultThread } from "./describe-stop.js";
import { formatLocals, frameLocals } from "./frame-locals.js";
import type { DebugSession } from "./debug-session.js";
import { collapseLibraryFrames, standardLibrary } from "./library-frames.js";
import { readableFrameName } from "./readable-frame-name.js";

/** Caps of the inspection answers (DESIGN §4 debug). */
export const LIMITS = {
  frames: 30,
  children: 50,
  valueCharacters: 400,
  textBudget: 14 * 1024,
  output: 8 * 1024,
} as const;

function requireStopped(session: DebugSession, op: string): void {
  if (session.state !== "stopped") {
    throw new ToolError({
      code: "conflict",
      message: `Op \`${op}\` needs the program stopped, but it is ${session.state}. Call op \`pause\` first, or set a breakpoint and continue.`,
    });
  }
}

/** threads */
export async function threadsOp(session: DebugSession): Promise<ToolResult> {
  const response = await session.request<DebugProtocol.ThreadsResponse>("threads", {});
  const threads = response.body?.threads ?? [];
  const rows = threads.map((thread) => `${thread.id}: ${cutText(thread.name, 100).text}`);
  const joined = joinWithinBudget(rows, LIMITS.textBudget);
  const more = threads.length - joined.shown;
  return textResult(`${threads.length} thread(s):\n${joined.text}${more > 0 ? `\n… ${more} more not shown.` : ""}`, {
    total: threads.length,
    threads: threads.slice(0, joined.shown).map((thread) => ({ id: thread.id, name: thread.name })),
  });
}

/** stack (30 frames) */
export async function stackOp(
  session: DebugSession,
  threadId: number | undefined,
  workdir: string,
): Promise<ToolResult> {
  requireStopped(session, "stack");
  const thread = threadId ?? (await defaultThread(session));
  const response = await session.request<DebugProtocol.StackTraceResponse>("stackTrace", {
    threadId: thread,
    startFrame: 0,
    levels: LIMITS.frames,
  });
  const frames = (response.body?.stackFrames ?? []).slice(0, LIMITS.frames);
  const total = response.body?.totalFrames ?? frames.length;
  const where = (frame: DebugProtocol.StackFrame): string => {
    const path = frame.source?.path;
    if (path === undefined) return frame.source?.name ?? "(no source)";
    return `${isInside(workdir, path) ? displayPath(workdir, path) : path}:${frame.line}`;
  };
  // Runs of standard-library frames (29 of a Rust stack: 4.3 KB) are one line each (issue 26).
  const stackRows = collapseLibraryFrames(frames, (frame) => ({
    name: readableFrameName(frame.name),
    path: frame.source?.path,
  }));
  const rows = stackRows.map((row) =>
    "frame" in row
      ? `#${row.frame.id} ${cutText(readableFrameName(row.frame.name), 120).text} at ${where(row.frame)}`
      : `… ${row.collapsed.length} frames in ${row.libraries.join(", ")} (#${row.collapsed[0]!.id} … #${row.collapsed.at(-1)!.id})`,
  );
  const joined = joinWithinBudget(rows, LIMITS.textBudget);
  const shownFrames = stackRows
    .slice(0, joined.shown)
    .flatMap((row): Array<{ frame: DebugProtocol.StackFrame; collapsed?: boolean }> =>
      "frame" in row ? [{ frame: row.frame }] : row.collapsed.map((frame) => ({ frame, collapsed: true })),
    );
  const omitted = Math.max(total, frames.length) - shownFrames.length;
  return textResult(
    `Thread ${thread}, ${shownFrames.length} of ${Math.max(total, frames.length)} frame(s) (frame ids for scopes/locals/evaluate):\n${joined.text}${omitted > 0 ? `\n… ${omitted} more frame(s) not shown (at most ${LIMITS.frames}).` : ""}`,
    {
      thread_id: thread,
      total: Math.max(total, frames.length),
      frames: shownFrames.map(({ frame, collapsed }) => ({
        id: frame.id,
        name: readableFrameName(frame.name),
        file: frame.source?.path,
        line: frame.line,
        ...(collapsed === true ? { library: standardLibrary(readableFrameName(frame.name), frame.source?.path) } : {}),
      })),
    },
  );
}

/** scopes (frame_id) */
export async function scopesOp(session: DebugSession, frameId: number): Promise<ToolResult> {
  requireStopped(session, "scopes");
  const response = await session.request<DebugProtocol.ScopesResponse>("scopes", { frameId });
  const scopes = response.body?.scopes ?? [];
  const rows = scopes.map(
    (scope) => `${scope.name}: reference ${scope.variablesReference}${scope.expensive ? " (expensive)" : ""}`,
  );
  return textResult(
    `${scopes.length} scope(s) of frame ${frameId} (pass a reference to op \`variables\`):\n${rows.join("\n")}`,
    {
      frame_id: frameId,
      scopes: scopes.map((scope) => ({
        name: scope.name,
        reference: scope.variablesReference,
        expensive: scope.expensive,
      })),
    },
  );
}

/** variables (reference): 50 children, values cut at 400 characters, omitted counts said. */
export async function variablesOp(session: DebugSession, reference: number): Promise<ToolResult> {
  requireStopped(session, "variables");
  const response = await session.request<DebugProtocol.VariablesResponse>("variables", {
    variablesReference: reference,
  });
  // Capped here whatever was asked: debugpy ignores start/count paging (research/debug.md §4.1).
  const all = response.body?.variables ?? [];
  const children = all.slice(0, LIMITS.children);
  let cutValues = 0;
  const views = children.map((variable) => {
    const value = cutText(variable.value, LIMITS.valueCharacters);
    if (value.cut > 0) cutValues++;
    return {
      name: variable.name,
      value: value.text,
      ...(value.cut > 0 ? { value_cut: value.cut } : {}),
      ...(variable.type === undefined ? {} : { type: variable.type }),
      reference: variable.variablesReference,
    };
  });
  const rows = views.map(
    (view) =>
      `${view.name}${view.type === undefined ? "" : ` (${view.type})`} = ${view.value}${view.reference > 0 ? ` [reference ${view.reference}]` : ""}`,
  );
  const joined = joinWithinBudget(rows, LIMITS.textBudget);
  const omitted = all.length - joined.shown;
  const notes = [
    omitted > 0
      ? `${omitted} of ${all.length} children not shown (at most ${LIMITS.children}; evaluate an expression such as a slice to see others).`
      : "",
    cutValues > 0 ? `${cutValues} value(s) cut at ${LIMITS.valueCharacters} characters.` : "",
  ].filter((note) => note.length > 0);
  return textResult(
    `${joined.shown} of ${all.length} variable(s) of reference ${reference}:\n${joined.text}${notes.length > 0 ? `\n${notes.join(" ")}` : ""}`,
    {
      reference,
      total: all.length,
      omitted,
      variables: views.slice(0, joined.shown),
    },
  );
}

/**
 * variables (expression, frame_id?): the children of what an expression path names (`resp.headers`,
 * `cmd.parent`), in one call instead of evaluate → variables. Evaluated in the `watch` context, where
 * lldb reads a variable path without running code and debugpy and dlv evaluate as usual.
 */
export async function variablesOfExpression(
  session: DebugSession,
  expression: string,
  frameId: number | undefined,
): Promise<ToolResult> {
  requireStopped(session, "variables");
  const frame = frameId ?? (await topFrame(session));
  const response = await session.request<DebugProtocol.EvaluateResponse>("evaluate", {
    expression,
    ...(frame === undefined ? {} : { frameId: frame }),
    context: "watch",
  });
  const body = response.body;
  if (body.variablesReference === 0) {
    const value = cutText(body.result, LIMITS.valueCharacters);
    return textResult(
      `${expression}${body.type === undefined ? "" : ` (${body.type})`} = ${value.text} (no children)`,
      { expression, result: value.text, ...(body.type === undefined ? {} : { type: body.type }), reference: 0 },
    );
  }
  const children = await variablesOp(session, body.variablesReference);
  const text = children.content[0]?.type === "text" ? children.content[0].text : "";
  const head = `${expression}${body.type === undefined ? "" : ` (${body.type})`} = ${cutText(body.result, LIMITS.valueCharacters).text}`;
  return textResult(`${head}\n${text}`, { expression, ...children.structured });
}

async function topFrame(session: DebugSession): Promise<number | undefined> {
  const trace = await session.request<DebugProtocol.StackTraceResponse>("stackTrace", {
    threadId: await defaultThread(session),
    startFrame: 0,
    levels: 1,
  });
  return trace.body?.stackFrames[0]?.id;
}

/** evaluate (expression, frame_id?) */
export async function evaluateOp(
  session: DebugSession,
  expression: string,
  frameId: number | undefined,
): Promise<ToolResult> {
  requireStopped(session, "evaluate");
  const frame = frameId ?? (await topFrame(session));
  const response = await session.request<DebugProtocol.EvaluateResponse>("evaluate", {
    expression,
    ...(frame === undefined ? {} : { frameId: frame }),
    context: "repl",
  });
  const body = response.body;
  const value = cutText(body.result, LIMITS.valueCharacters * 10);
  return textResult(
    `${expression} = ${value.text}${body.type === undefined ? "" : ` (${body.type})`}${body.variablesReference > 0 ? ` [reference ${body.variablesReference}]` : ""}${value.cut > 0 ? `\n(${value.cut} characters cut)` : ""}`,
    {
      expression,
      result: value.text,
      ...(body.type === undefined ? {} : { type: body.type }),
      reference: body.variablesReference,
      ...(frame === undefined ? {} : { frame_id: frame }),
    },
  );
}

/** output: the newest program output, with what is not shown and what the buffer dropped. */
export function outputOp(session: DebugSession): ToolResult {
  const tail = session.output.tail(LIMITS.output);
  const notes = [
    tail.notShown > 0 ? `${tail.notShown} earlier character(s) kept but not shown.` : "",
    tail.dropped > 0
      ? `${tail.dropped} character(s) dropped from the start (the session keeps the newest ${session.settings.outputCapacity}).`
      : "",
  ].filter((note) => note.length > 0);
  return textResult(
    `${tail.text.length === 0 ? "No output yet." : `Output (newest ${tail.text.length} of ${tail.total} characters):\n${tail.text}`}${notes.length > 0 ? `\n${notes.join(" ")}` : ""}`,
    {
      text: tail.text,
      total: tail.total,
      not_shown: tail.notShown,
      dropped: tail.dropped,
    },
  );
}

/** locals (frame_id?, default the top frame): the frame's own variables in one call, pointers to structs expanded one level. */
export async function localsOp(session: DebugSession, frameId: number | undefined): Promise<ToolResult> {
  requireStopped(session, "locals");
  const frame = frameId ?? (await topFrame(session));
  if (frame === undefined)
    throw new ToolError({
      code: "conflict",
      message: "The stopped thread has no frame to read locals from. Call op `stack` and pass a `frame_id`.",
    });
  const locals = await frameLocals(session, frame, {
    count: LIMITS.children,
    valueCharacters: LIMITS.valueCharacters,
    pointers: 10,
    fields: 20,
  });
  const rows = formatLocals(locals, "");
  const joined = joinWithinBudget(rows, LIMITS.textBudget);
  const more = rows.length - joined.shown;
  return textResult(
    `${locals.locals.length} of ${locals.total} local(s) of frame ${frame} (${locals.scopes.join(", ") || "no scope"}; a [reference] goes to op \`variables\`):\n${joined.text}${more > 0 ? `\n… ${more} more line(s) not shown.` : ""}`,
    { frame_id: frame, scopes: locals.scopes, total: locals.total, omitted: locals.omitted, locals: locals.locals },
  );
}
