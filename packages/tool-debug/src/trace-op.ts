import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { cutText, joinWithinBudget } from "@runbound/runtime-kit";
import { parseCallTrace, renderCallTrace } from "./call-trace.js";
import type { DebugSession } from "./debug-session.js";
import { defaultThread } from "./describe-stop.js";
import { answerOutcome } from "./execution-ops.js";
import { PYTHON_TRACE_REMOVER, pythonTraceInstaller } from "./python-call-tracer.js";

/** Caps of a trace: events recorded in the debuggee, lines shown, bytes of the trace file read. */
export const TRACE_LIMITS = { events: 20_000, lines: 200, fileBytes: 8 * 1024 * 1024, textBudget: 12 * 1024 } as const;

/**
 * trace: from a stop, run on (to the program's end, the next breakpoint, or the stop budget) recording
 * every call into the workdir's code — name, arguments, return value or that it raised, nesting — and
 * answer with the calls, repeats collapsed, then where the program is. debugpy only (a profile hook in
 * the debuggee); other adapters are refused by name.
 */
export async function traceOp(
  session: DebugSession,
  workdir: string,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<ToolResult> {
  if (session.settings.adapter.traceCalls !== true) {
    throw new ToolError({
      code: "invalid_input",
      message: `Op \`trace\` works with debugpy only (a profile hook in the Python debuggee); ${session.settings.adapter.id} has none. Use function breakpoints (op \`breakpoints\` with \`functions\`) and continue instead.`,
    });
  }
  if (session.state !== "stopped") {
    throw new ToolError({
      code: "conflict",
      message: `Op \`trace\` needs the program stopped, but it is ${session.state}. Launch with \`stop_on_entry: true\` or a breakpoint, then trace.`,
    });
  }
  const thread = await defaultThread(session);
  const frame = (
    await session.request<DebugProtocol.StackTraceResponse>("stackTrace", {
      threadId: thread,
      startFrame: 0,
      levels: 1,
    })
  ).body?.stackFrames[0]?.id;
  const directory = await mkdtemp(join(tmpdir(), "runbound-trace-"));
  try {
    const file = join(directory, "calls.jsonl");
    await session.request("evaluate", {
      expression: pythonTraceInstaller(file, workdir.endsWith(sep) ? workdir : `${workdir}${sep}`, TRACE_LIMITS.events),
      ...(frame === undefined ? {} : { frameId: frame }),
      context: "repl",
    });
    const outcome = await session.execute("continue", { threadId: thread, singleThread: false }, signal);
    // Stopped again (a breakpoint): the hook is removed so later steps are not traced.
    if (outcome.kind === "stopped")
      await session.request("evaluate", { expression: PYTHON_TRACE_REMOVER, context: "repl" }).catch(() => undefined);
    const text = await readFile(file, "utf8").catch(() => "");
    const { roots, events } = parseCallTrace(
      text.length > TRACE_LIMITS.fileBytes ? text.slice(0, TRACE_LIMITS.fileBytes) : text,
    );
    const rendered = renderCallTrace(roots, TRACE_LIMITS.lines);
    const joined = joinWithinBudget(
      rendered.lines.map((line) => cutText(line, 400).text),
      TRACE_LIMITS.textBudget,
    );
    const notes = [
      events >= TRACE_LIMITS.events ? `The trace stopped recording after ${TRACE_LIMITS.events} events.` : "",
      rendered.omittedCalls > 0 || joined.shown < rendered.lines.length
        ? `${rendered.omittedCalls} call(s) not shown individually${joined.shown < rendered.lines.length ? `, ${rendered.lines.length - joined.shown} line(s) over the size limit` : ""}; set a breakpoint closer to the code in question and trace from there.`
        : "",
    ].filter((note) => note.length > 0);
    const answer = await answerOutcome(session, outcome, workdir, budgetMs);
    const after = answer.content[0]?.type === "text" ? answer.content[0].text : "";
    const head =
      roots.length === 0
        ? "No call into the workdir's code was recorded."
        : `${rendered.calls} call(s) into the workdir's code (indented by depth; "raised": it ended by an exception):`;
    return textResult([head, ...(roots.length === 0 ? [] : [joined.text]), ...notes, "Then:", after].join("\n"), {
      calls: rendered.calls,
      omitted_calls: rendered.omittedCalls,
      trace: rendered.lines.slice(0, joined.shown),
      ...answer.structured,
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
