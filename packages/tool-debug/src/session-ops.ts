import { displayPath, resolveInWorkdir, textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { AdapterId } from "./adapter-table.js";
import type { DebugSupervisorInstance, StartRequest } from "./debug-supervisor.js";
import type { BreakpointRow } from "./debug-session.js";
import { answerOutcome } from "./execution-ops.js";

/** adapters: each adapter with available and the reason. */
export async function adaptersOp(supervisor: DebugSupervisorInstance, workdir: string): Promise<ToolResult> {
  const rows = await supervisor.adapters(workdir);
  const text = rows.map((row) => `${row.id}: ${row.available ? "available" : "unavailable"} — ${row.reason}`).join("\n");
  return textResult(text, { adapters: rows.map((row) => ({ id: row.id, available: row.available, reason: row.reason, ...(row.located === undefined ? {} : { command: row.located.command }) })) });
}

function formatBreakpoint(row: BreakpointRow): string {
  if (row.verified === undefined) return `line ${row.requested}: queued, sent at launch`;
  const moved = row.bound !== undefined && row.bound !== row.requested ? ` (moved to line ${row.bound})` : "";
  return `line ${row.requested}: ${row.verified ? "verified" : "NOT verified"}${moved}${row.message === undefined ? "" : ` — ${row.message}`}`;
}

function breakpointView(row: BreakpointRow): Record<string, unknown> {
  return { requested: row.requested, ...(row.bound === undefined ? {} : { bound: row.bound }), ...(row.verified === undefined ? { queued: true } : { verified: row.verified }), ...(row.message === undefined ? {} : { message: row.message }) };
}

/** breakpoints (file, lines[]): set now when a session runs, queued for the launch otherwise; [] clears. */
export async function breakpointsOp(supervisor: DebugSupervisorInstance, conversationId: string, workdir: string, file: string, lines: readonly number[]): Promise<ToolResult> {
  const bad = lines.find((line) => !Number.isInteger(line) || line < 1);
  if (bad !== undefined) throw new ToolError({ code: "invalid_input", message: `Line \`${bad}\` is not a line number; give whole numbers from 1.` });
  const path = await resolveInWorkdir(workdir, file);
  const unique = [...new Set(lines)];
  supervisor.rememberBreakpoints(conversationId, path, unique);
  const session = supervisor.status(conversationId).session;
  const live = session !== undefined && (session.state === "stopped" || session.state === "running");
  const rows: BreakpointRow[] = live ? await session.setBreakpoints(path, unique) : unique.map((line) => ({ requested: line }));
  const shown = displayPath(workdir, path);
  const head = unique.length === 0 ? `Cleared the breakpoints of ${shown}.` : `${shown}: ${live ? "set" : "queued until launch"}:`;
  return textResult([head, ...rows.map((row) => `  ${formatBreakpoint(row)}`)].join("\n"), { file: shown, breakpoints: rows.map(breakpointView) });
}

/** launch (program, args[], adapter?) or attach (port, adapter?) */
export async function startOp(
  supervisor: DebugSupervisorInstance,
  conversationId: string,
  workdir: string,
  input: { program: string; args: readonly string[]; adapter?: AdapterId } | { port: number; adapter?: AdapterId },
  onProgress: (message: string) => void,
): Promise<ToolResult> {
  const adapter = input.adapter === undefined ? {} : { adapter: input.adapter };
  let request: StartRequest;
  if ("port" in input) {
    if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65_535) {
      throw new ToolError({ code: "invalid_input", message: `Port \`${input.port}\` is not a TCP port; give a whole number from 1 to 65535.` });
    }
    request = { request: "attach", port: input.port, onProgress, ...adapter };
  } else {
    request = { request: "launch", program: await resolveInWorkdir(workdir, input.program), args: input.args, onProgress, ...adapter };
  }
  const { session, outcome } = await supervisor.start(conversationId, workdir, request);
  const answer = await answerOutcome(session, outcome, workdir, supervisor.settings.stopBudgetMs);
  const breakpoints = [...session.breakpoints].flatMap(([file, rows]) => rows.map((row) => `  ${displayPath(workdir, file)} ${formatBreakpoint(row)}`));
  const head = `${"port" in input ? "Attached to" : "Launched"} \`${session.target(workdir)}\` with ${session.settings.adapter.id}.${breakpoints.length > 0 ? `\nBreakpoints:\n${breakpoints.join("\n")}` : ""}`;
  const text = answer.content[0]?.type === "text" ? answer.content[0].text : "";
  return textResult(`${head}\n${text}`, { adapter: session.settings.adapter.id, target: session.target(workdir), ...answer.structured });
}

/** status: the session's state, or why there is none. */
export function statusOp(supervisor: DebugSupervisorInstance, conversationId: string, workdir: string): ToolResult {
  const status = supervisor.status(conversationId);
  const queued = [...status.queued].map(([file, lines]) => `${displayPath(workdir, file)}: ${lines.join(", ")}`);
  const session = status.session;
  if (session === undefined) {
    const text = `${status.expired ?? "No debug session in this conversation."}${queued.length > 0 ? `\nBreakpoints for the next launch: ${queued.join("; ")}` : ""}`;
    return textResult(text, { state: status.expired === undefined ? "none" : "expired" });
  }
  const ageMs = supervisor.settings.now() - session.startedAt;
  const lines = [
    `${session.settings.adapter.id} session on \`${session.target(workdir)}\`: ${session.state}${session.state === "stopped" && session.lastStop !== undefined ? ` (${session.lastStop.reason}, thread ${session.lastStop.threadId ?? "?"})` : ""}${session.exitCode === undefined ? "" : `, exit code ${session.exitCode}`}.`,
    `Started ${Math.round(ageMs / 1000)} s ago; it is stopped ${Math.max(0, Math.round((supervisor.settings.ttlMs - ageMs) / 1000))} s from now (TTL).`,
    ...(session.crashDetail === undefined ? [] : [session.crashDetail]),
    ...(queued.length > 0 ? [`Breakpoints: ${queued.join("; ")}`] : []),
  ];
  return textResult(lines.join("\n"), { state: session.state, adapter: session.settings.adapter.id, age_ms: ageMs, ...(session.exitCode === undefined ? {} : { exit_code: session.exitCode }) });
}

/** terminate: end the session and every process of it. */
export async function terminateOp(supervisor: DebugSupervisorInstance, conversationId: string): Promise<ToolResult> {
  const ended = await supervisor.terminate(conversationId);
  const expired = supervisor.status(conversationId).expired;
  return textResult(ended ? "Terminated the debug session: the adapter and the program are stopped." : (expired ?? "There was no debug session to terminate."), { terminated: ended });
}
