import { realpath, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { displayPath, isInside, resolveInWorkdir } from "@runbound/runtime-kit";
import { textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DebugSupervisorInstance } from "./debug-supervisor.js";
import type { BreakpointRow, DebugSession, ExceptionFiltersAnswer, FunctionBreakpointRow } from "./debug-session.js";

/** One breakpoint as the tool input gives it. */
export interface PointInput {
  line: number;
  condition?: string | undefined;
  hit_condition?: string | undefined;
  log_message?: string | undefined;
}

/** A breakpoint file: inside the workdir, or an existing file outside it (dependency code: site-packages, the Go module cache, the cargo registry), only read. */
export async function breakpointFile(workdir: string, file: string): Promise<string> {
  try {
    return await resolveInWorkdir(workdir, file);
  } catch (error) {
    if (!(ToolError.isInstance(error) && error.code === "outside_workdir" && isAbsolute(file))) throw error;
    // Breakpoints only read a file (the adapter matches its path), so dependency code is allowed; writes stay confined.
    const real = await realpath(file).catch(() => undefined);
    if (real === undefined || (await stat(real)).isFile() !== true) {
      throw new ToolError({
        code: "not_found",
        message: `File \`${file}\` does not exist. Give a file of the workdir (relative) or an existing file of the program's dependencies (absolute).`,
      });
    }
    return real;
  }
}

/** A path for answers: relative inside the workdir, absolute outside it. */
export function shownPath(workdir: string, path: string): string {
  return isInside(workdir, path) ? displayPath(workdir, path) : path;
}

function pointLabel(row: {
  requested: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}): string {
  const parts = [
    row.condition === undefined ? "" : ` if ${row.condition}`,
    row.hitCondition === undefined ? "" : ` hit ${row.hitCondition}`,
    row.logMessage === undefined ? "" : ` log "${row.logMessage}"`,
  ];
  return `line ${row.requested}${parts.join("")}`;
}

/** One breakpoint row as a line of text. */
export function formatBreakpoint(row: BreakpointRow): string {
  if (row.verified === undefined) return `${pointLabel(row)}: queued, sent at launch`;
  const moved = row.bound !== undefined && row.bound !== row.requested ? ` (moved to line ${row.bound})` : "";
  return `${pointLabel(row)}: ${row.verified ? "verified" : "NOT verified"}${moved}${row.message === undefined ? "" : ` — ${row.message}`}`;
}

function breakpointView(row: BreakpointRow): Record<string, unknown> {
  return {
    requested: row.requested,
    ...(row.condition === undefined ? {} : { condition: row.condition }),
    ...(row.hitCondition === undefined ? {} : { hit_condition: row.hitCondition }),
    ...(row.logMessage === undefined ? {} : { log_message: row.logMessage }),
    ...(row.bound === undefined ? {} : { bound: row.bound }),
    ...(row.verified === undefined ? { queued: true } : { verified: row.verified }),
    ...(row.message === undefined ? {} : { message: row.message }),
  };
}

/** One function breakpoint row as a line of text. */
export function formatFunctionBreakpoint(row: FunctionBreakpointRow, workdir: string): string {
  if (row.verified === undefined) return `function ${row.name}: queued, sent at launch`;
  const where =
    row.file === undefined ? "" : ` at ${shownPath(workdir, row.file)}${row.line === undefined ? "" : `:${row.line}`}`;
  return `function ${row.name}: ${row.verified ? "verified" : "NOT verified"}${where}${row.message === undefined ? "" : ` — ${row.message}`}`;
}

function toSourceBreakpoints(
  lines: readonly number[] | undefined,
  points: readonly PointInput[] | undefined,
): DebugProtocol.SourceBreakpoint[] {
  const given: PointInput[] = points !== undefined ? [...points] : (lines ?? []).map((line) => ({ line }));
  const bad = given.find((point) => !Number.isInteger(point.line) || point.line < 1);
  if (bad !== undefined)
    throw new ToolError({
      code: "invalid_input",
      message: `Line \`${bad.line}\` is not a line number; give whole numbers from 1.`,
    });
  const byLine = new Map<number, DebugProtocol.SourceBreakpoint>();
  for (const point of given) {
    byLine.set(point.line, {
      line: point.line,
      ...(point.condition === undefined ? {} : { condition: point.condition }),
      ...(point.hit_condition === undefined ? {} : { hitCondition: point.hit_condition }),
      ...(point.log_message === undefined ? {} : { logMessage: point.log_message }),
    });
  }
  return [...byLine.values()];
}

function liveSession(supervisor: DebugSupervisorInstance, conversationId: string): DebugSession | undefined {
  const session = supervisor.status(conversationId).session;
  return session !== undefined && (session.state === "stopped" || session.state === "running") ? session : undefined;
}

/**
 * breakpoints: `file` with `lines[]` or `points[]` (conditions, hit conditions, log messages) and/or
 * `functions[]`; set now when a session runs, queued for the launch otherwise; [] clears.
 */
export async function breakpointsOp(
  supervisor: DebugSupervisorInstance,
  conversationId: string,
  workdir: string,
  input: {
    file?: string | undefined;
    lines?: readonly number[] | undefined;
    points?: readonly PointInput[] | undefined;
    functions?: readonly string[] | undefined;
  },
): Promise<ToolResult> {
  if (input.file === undefined && input.functions === undefined) {
    throw new ToolError({
      code: "invalid_input",
      message:
        'Op `breakpoints` needs `file` with `lines` or `points` (e.g. `"file": "app.py", "lines": [12]`), or `functions` (e.g. `"functions": ["main.add"]`).',
    });
  }
  if (input.file !== undefined && input.lines === undefined && input.points === undefined) {
    throw new ToolError({
      code: "invalid_input",
      message:
        'Op `breakpoints` with `file` needs `lines` (e.g. `"lines": [12]`) or `points` (e.g. `"points": [{"line": 12, "condition": "i == 7"}]`); `[]` clears the file.',
    });
  }
  if (input.lines !== undefined && input.points !== undefined) {
    throw new ToolError({
      code: "invalid_input",
      message:
        "Give `lines` or `points`, not both: `points` takes the same lines with a condition, hit_condition or log_message each.",
    });
  }
  const session = liveSession(supervisor, conversationId);
  const texts: string[] = [];
  const structured: Record<string, unknown> = {};
  if (input.file !== undefined) {
    const path = await breakpointFile(workdir, input.file);
    const points = toSourceBreakpoints(input.lines, input.points);
    supervisor.rememberBreakpoints(conversationId, path, points);
    const rows: BreakpointRow[] =
      session !== undefined
        ? await session.setBreakpoints(path, points)
        : points.map((point) => ({
            requested: point.line,
            ...(point.condition === undefined ? {} : { condition: point.condition }),
            ...(point.hitCondition === undefined ? {} : { hitCondition: point.hitCondition }),
            ...(point.logMessage === undefined ? {} : { logMessage: point.logMessage }),
          }));
    const shown = shownPath(workdir, path);
    const head =
      points.length === 0
        ? `Cleared the breakpoints of ${shown}.`
        : `${shown}: ${session !== undefined ? "set" : "queued until launch"}:`;
    texts.push(head, ...rows.map((row) => `  ${formatBreakpoint(row)}`));
    Object.assign(structured, { file: shown, breakpoints: rows.map(breakpointView) });
  }
  if (input.functions !== undefined) {
    const names = [...new Set(input.functions)];
    const empty = names.find((name) => name.trim().length === 0);
    if (empty !== undefined)
      throw new ToolError({
        code: "invalid_input",
        message:
          "A function breakpoint name is empty; give names such as `main.add` (Go), `add` (C, Python) or `crate::module::function` (Rust).",
      });
    supervisor.rememberFunctionBreakpoints(conversationId, names);
    const rows: FunctionBreakpointRow[] =
      session !== undefined ? await session.setFunctionBreakpoints(names) : names.map((name) => ({ name }));
    texts.push(
      names.length === 0
        ? "Cleared the function breakpoints."
        : `Function breakpoints ${session !== undefined ? "set" : "queued until launch"}:`,
      ...rows.map((row) => `  ${formatFunctionBreakpoint(row, workdir)}`),
    );
    structured["functions"] = rows.map((row) => ({
      name: row.name,
      ...(row.verified === undefined ? { queued: true } : { verified: row.verified }),
      ...(row.file === undefined ? {} : { file: shownPath(workdir, row.file) }),
      ...(row.line === undefined ? {} : { line: row.line }),
      ...(row.message === undefined ? {} : { message: row.message }),
    }));
  }
  return textResult(texts.join("\n"), structured);
}

/** The exception filters' answer as lines of text. */
export function formatExceptionFilters(answer: ExceptionFiltersAnswer): string[] {
  const lines = [
    answer.accepted.length === 0
      ? "No exception filter is set: the program stops on no exception."
      : `Exception filters set: ${answer.accepted.map((row) => `${row.filter}${row.verified === false ? ` (NOT verified${row.message === undefined ? "" : `: ${row.message}`})` : ""}`).join(", ")}.`,
  ];
  if (answer.unknown.length > 0)
    lines.push(
      `Refused (the adapter does not offer them): ${answer.unknown.map((filter) => `\`${filter}\``).join(", ")}.`,
    );
  lines.push(
    `Offered: ${answer.offered.map((filter) => `${filter.filter} (${filter.label}${filter.default === true ? ", default" : ""})`).join(", ") || "none"}.`,
  );
  return lines;
}

/** exceptions (filters[]): which exceptions stop the program; [] stops on none, queued before a launch. */
export async function exceptionsOp(
  supervisor: DebugSupervisorInstance,
  conversationId: string,
  filters: readonly string[],
): Promise<ToolResult> {
  const unique = [...new Set(filters)];
  supervisor.rememberExceptionFilters(conversationId, unique);
  const session = liveSession(supervisor, conversationId);
  if (session === undefined) {
    const known = supervisor.settings.adapters.flatMap((adapter) =>
      (adapter.exceptionFilters ?? []).map((filter) => `${adapter.id}: ${filter}`),
    );
    return textResult(
      `Exception filters queued until launch: ${unique.join(", ") || "none (stop on no exception)"}. Filters the adapter does not offer are refused then. Known filters: ${known.join("; ")}.`,
      { queued: unique },
    );
  }
  const answer = await session.setExceptionFilters(unique);
  return textResult(formatExceptionFilters(answer).join("\n"), {
    filters: answer.accepted,
    ...(answer.unknown.length === 0 ? {} : { refused: answer.unknown }),
    offered: answer.offered.map((filter) => ({
      filter: filter.filter,
      label: filter.label,
      ...(filter.default === undefined ? {} : { default: filter.default }),
    })),
  });
}
