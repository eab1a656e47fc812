import { stat } from "node:fs/promises";
import { resolveInWorkdir } from "@runbound/runtime-kit";
import { textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { AdapterId, LaunchOptions } from "./adapter-table.js";
import type { DebugSession } from "./debug-session.js";
import type { DebugSupervisorInstance, StartRequest } from "./debug-supervisor.js";
import { formatBreakpoint, formatFunctionBreakpoint, shownPath } from "./breakpoint-ops.js";
import { answerOutcome } from "./execution-ops.js";

/** adapters: each adapter with available and the reason. */
export async function adaptersOp(supervisor: DebugSupervisorInstance, workdir: string): Promise<ToolResult> {
  const rows = await supervisor.adapters(workdir);
  const definitions = new Map(supervisor.settings.adapters.map((adapter) => [adapter.id, adapter]));
  const text = rows
    .map((row) => {
      const definition = definitions.get(row.id);
      const filters =
        definition?.exceptionFilters === undefined
          ? ""
          : `\n  exception filters (op \`exceptions\`): ${definition.exceptionFilters.join(", ")}`;
      const features = definition?.features === undefined ? "" : `\n  breakpoints: ${definition.features}`;
      const test = definition?.testMode === undefined ? "" : `\n  mode test: ${definition.testMode}`;
      const trace = `\n  op trace: ${definition?.traceCalls === true ? "yes" : "no"}`;
      return `${row.id}: ${row.available ? "available" : "unavailable"} — ${row.reason}${filters}${features}${test}${trace}`;
    })
    .join("\n");
  return textResult(text, {
    adapters: rows.map((row) => ({
      id: row.id,
      available: row.available,
      reason: row.reason,
      ...(row.located === undefined ? {} : { command: row.located.command }),
      ...(definitions.get(row.id)?.exceptionFilters === undefined
        ? {}
        : { exception_filters: definitions.get(row.id)!.exceptionFilters }),
    })),
  });
}

/** launch (program, args[], adapter?) or attach (port, adapter?) */
export async function startOp(
  supervisor: DebugSupervisorInstance,
  conversationId: string,
  workdir: string,
  input:
    | {
        program?: string | undefined;
        args: readonly string[];
        cwd?: string | undefined;
        options: LaunchOptions;
        adapter?: AdapterId;
      }
    | { port: number; adapter?: AdapterId },
  onProgress: (message: string) => void,
): Promise<ToolResult> {
  const adapter = input.adapter === undefined ? {} : { adapter: input.adapter };
  let request: StartRequest;
  if ("port" in input) {
    if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65_535) {
      throw new ToolError({
        code: "invalid_input",
        message: `Port \`${input.port}\` is not a TCP port; give a whole number from 1 to 65535.`,
      });
    }
    request = { request: "attach", port: input.port, onProgress, ...adapter };
  } else {
    if (input.program === undefined && input.options.module === undefined && input.options.mode !== "test") {
      throw new ToolError({
        code: "invalid_input",
        message:
          'Op `launch` needs `program` (e.g. `"program": "app.py"`), or `module` for Python (e.g. `"module": "pytest"`), or `mode: "test"`.',
      });
    }
    if (input.program !== undefined && input.options.module !== undefined) {
      throw new ToolError({
        code: "invalid_input",
        message: `Give \`program\` or \`module\`, not both: \`module\` (\`${input.options.module}\`) runs \`python -m ${input.options.module}\`; put files it needs in \`args\`.`,
      });
    }
    if (input.options.test !== undefined && input.options.mode !== "test") {
      throw new ToolError({
        code: "invalid_input",
        message: `\`test\` (\`${input.options.test}\`) chooses tests in test mode; add \`"mode": "test"\`, or leave \`test\` out.`,
      });
    }
    const cwd = input.cwd === undefined ? undefined : await resolveInWorkdir(workdir, input.cwd);
    if (cwd !== undefined && (await stat(cwd).catch(() => undefined))?.isDirectory() !== true) {
      throw new ToolError({
        code: "invalid_input",
        message: `\`cwd\` (\`${input.cwd}\`) is not a directory of the workdir. Give an existing directory, relative to the working directory.`,
      });
    }
    const envName = Object.keys(input.options.programEnv ?? {}).find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
    if (envName !== undefined)
      throw new ToolError({
        code: "invalid_input",
        message: `Environment variable name \`${envName}\` is not valid; use letters, digits and \`_\`, not starting with a digit.`,
      });
    request = {
      request: "launch",
      ...(input.program === undefined ? {} : { program: await resolveInWorkdir(workdir, input.program) }),
      ...(cwd === undefined ? {} : { cwd }),
      args: input.args,
      options: input.options,
      onProgress,
      ...adapter,
    };
  }
  const { session, outcome } = await supervisor.start(conversationId, workdir, request);
  const answer = await answerOutcome(session, outcome, workdir, supervisor.settings.stopBudgetMs);
  const breakpoints = [
    ...[...session.breakpoints].flatMap(([file, rows]) =>
      rows.map((row) => `  ${shownPath(workdir, file)} ${formatBreakpoint(row)}`),
    ),
    ...session.functionBreakpoints.map((row) => `  ${formatFunctionBreakpoint(row, workdir)}`),
    ...(session.exceptionFilters !== undefined && session.exceptionFilters.unknown.length > 0
      ? [
          `  exception filters refused (not offered by ${session.settings.adapter.id}): ${session.exceptionFilters.unknown.join(", ")}`,
        ]
      : []),
  ];
  const head = `${"port" in input ? "Attached to" : "Launched"} \`${session.target(workdir)}\` with ${session.settings.adapter.id}.${breakpoints.length > 0 ? `\nBreakpoints:\n${breakpoints.join("\n")}` : ""}`;
  const text = answer.content[0]?.type === "text" ? answer.content[0].text : "";
  return textResult(`${head}\n${text}`, {
    adapter: session.settings.adapter.id,
    target: session.target(workdir),
    ...answer.structured,
  });
}

// "4 s", "29 min 56 s", "1 h 2 min": a duration as a person says it (issue 26: "it is stopped 1796 s from now (TTL)").
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 === 0 ? "" : ` ${seconds % 60} s`}`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? "" : ` ${minutes % 60} min`}`;
}

// The session's state in plain words: what the program is doing, and what can be done.
function stateWords(session: DebugSession): string {
  switch (session.state) {
    case "stopped":
      return `stopped${session.lastStop === undefined ? "" : ` (${session.lastStop.reason}) in thread ${session.lastStop.threadId ?? "?"}`}`;
    case "running":
      return "running";
    case "exited":
      return `exited${session.exitCode === undefined ? "" : ` with code ${session.exitCode}`}: the program has ended; launch again to rerun it`;
    case "crashed":
      return "crashed: the debug adapter ended unexpectedly";
    case "ended":
      return "ended";
  }
}

/** status: the session's state, or why there is none. */
export function statusOp(supervisor: DebugSupervisorInstance, conversationId: string, workdir: string): ToolResult {
  const status = supervisor.status(conversationId);
  const queued = [
    ...[...status.queued].map(
      ([file, points]) => `${shownPath(workdir, file)}: ${points.map((point) => point.line).join(", ")}`,
    ),
    ...(status.functions.length > 0 ? [`functions ${status.functions.join(", ")}`] : []),
    ...(status.exceptionFilters === undefined
      ? []
      : [`exception filters ${status.exceptionFilters.join(", ") || "none"}`]),
  ];
  const session = status.session;
  if (session === undefined) {
    const text = `${status.expired ?? "No debug session in this conversation."}${queued.length > 0 ? `\nBreakpoints for the next launch: ${queued.join("; ")}` : ""}`;
    return textResult(text, { state: status.expired === undefined ? "none" : "expired" });
  }
  const ageMs = supervisor.settings.now() - session.startedAt;
  const lines = [
    `${session.settings.adapter.id} session on \`${session.target(workdir)}\`: ${stateWords(session)}.`,
    `Started ${duration(ageMs)} ago; the session ends in ${duration(Math.max(0, supervisor.settings.ttlMs - ageMs))} (its time limit is ${duration(supervisor.settings.ttlMs)}), or at op \`terminate\`.`,
    ...(session.crashDetail === undefined ? [] : [session.crashDetail]),
    ...(queued.length > 0 ? [`Breakpoints: ${queued.join("; ")}`] : []),
  ];
  return textResult(lines.join("\n"), {
    state: session.state,
    adapter: session.settings.adapter.id,
    age_ms: ageMs,
    ...(session.exitCode === undefined ? {} : { exit_code: session.exitCode }),
  });
}

/** terminate: end the session and every process of it. */
export async function terminateOp(supervisor: DebugSupervisorInstance, conversationId: string): Promise<ToolResult> {
  const ended = await supervisor.terminate(conversationId);
  const expired = supervisor.status(conversationId).expired;
  return textResult(
    ended
      ? "Terminated the debug session: the adapter and the program are stopped."
      : (expired ?? "There was no debug session to terminate."),
    { terminated: ended },
  );
}
