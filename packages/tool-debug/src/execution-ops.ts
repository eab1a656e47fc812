import { displayPath } from "@runbound/runtime-kit";
import { abortedError, textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import { describeStop, defaultThread, formatStop } from "./describe-stop.js";
import type { DebugSession, ExecutionOutcome } from "./debug-session.js";

/** The execution ops and the DAP request each sends. */
export const STEP_COMMANDS = {
  continue: "continue",
  step_over: "next",
  step_in: "stepIn",
  step_out: "stepOut",
  pause: "pause",
} as const;

/** An execution op's name. */
export type ExecutionOp = keyof typeof STEP_COMMANDS;

function neverHit(session: DebugSession, workdir: string): string[] {
  const rows: string[] = [];
  for (const [file, breakpoints] of session.breakpoints) {
    for (const breakpoint of breakpoints) rows.push(`${displayPath(workdir, file)}:${breakpoint.requested}`);
  }
  return rows;
}

// Output written since the previous answer (logpoints, prints), the newest 2 KB of it.
function unreadOutput(session: DebugSession): { text: string; structured: { new_output?: string } } {
  const fresh = session.output.unread(2_048);
  if (fresh.text.length === 0) return { text: "", structured: {} };
  const more =
    fresh.notShown > 0
      ? ` (the newest ${fresh.text.length} characters; ${fresh.notShown} earlier in op \`output\`)`
      : "";
  return {
    text: `\nOutput since the last answer${more}:\n${fresh.text.replace(/\n$/, "")}`,
    structured: { new_output: fresh.text },
  };
}

/** The answer to an execution request or a launch: where it stopped, that it ended, or that it still runs. */
export async function answerOutcome(
  session: DebugSession,
  outcome: ExecutionOutcome,
  workdir: string,
  budgetMs: number,
): Promise<ToolResult> {
  switch (outcome.kind) {
    case "stopped": {
      const view = await describeStop(session, outcome.stop, workdir);
      const fresh = unreadOutput(session);
      return textResult(`${formatStop(view)}${fresh.text}`, { state: "stopped", stop: view, ...fresh.structured });
    }
    case "exited": {
      session.output.unread(0);
      const tail = session.output.tail(2_048);
      const breakpoints = neverHit(session, workdir);
      const text = [
        `The program ended${outcome.exitCode === undefined ? "" : ` with exit code ${outcome.exitCode}`} without stopping again.`,
        breakpoints.length > 0 && session.lastStop === undefined
          ? `Breakpoints never hit: ${breakpoints.join(", ")}.`
          : "",
        tail.text.length > 0
          ? `Output (last ${tail.text.length} characters; op \`output\` shows more):\n${tail.text}`
          : "No output.",
        "Call op `terminate` to end the session, or `launch` again.",
      ].filter((line) => line.length > 0);
      return textResult(text.join("\n"), {
        state: "exited",
        ...(outcome.exitCode === undefined ? {} : { exit_code: outcome.exitCode }),
      });
    }
    case "running": {
      const fresh = unreadOutput(session);
      return textResult(
        `Still running after ${budgetMs} ms without stopping (a long computation, waiting for input, or a loop). Call op \`pause\` to stop it where it is, \`status\` to check again, or \`output\` to see what it printed.${fresh.text}`,
        { state: "running", ...fresh.structured },
      );
    }
    case "crashed":
      throw new ToolError({
        code: "unavailable",
        message: `${outcome.detail} The session is over and nothing of it is left running; launch again.`,
      });
  }
}

/** continue / step_over / step_in / step_out / pause. */
export async function executionOp(
  session: DebugSession,
  op: ExecutionOp,
  threadId: number | undefined,
  workdir: string,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<ToolResult> {
  if (op === "pause" && session.state === "stopped") {
    // Answer from state rather than asking the adapter: a pause of a stopped target never gets a
    // `stopped` event (DebugMCP#157: a pause that hangs when already stopped).
    return answerOutcome(session, { kind: "stopped", stop: session.lastStop! }, workdir, budgetMs);
  }
  if (op !== "pause" && session.state !== "stopped") {
    throw new ToolError({
      code: "conflict",
      message: `Op \`${op}\` needs the program stopped, but it is ${session.state}. ${session.state === "running" ? "Call op `pause` first, or set a breakpoint." : "Launch again."}`,
    });
  }
  const thread = threadId ?? (await defaultThread(session));
  const outcome = await session.execute(
    STEP_COMMANDS[op],
    op === "continue" ? { threadId: thread, singleThread: false } : { threadId: thread },
    signal,
  );
  if (signal?.aborted === true && outcome.kind === "running") {
    const left = `the program is still running (op \`pause\` stops it, \`status\` shows its state)`;
    throw abortedError(signal, {
      timeout: `Op \`${op}\` ran out of time; ${left}.`,
      cancelled: `Op \`${op}\` was cancelled; ${left}.`,
    });
  }
  return answerOutcome(session, outcome, workdir, budgetMs);
}
