import type { ToolResult } from "@runbound/tool-kit";
import type { CellTranscript } from "./cell-transcript.js";
import { startInactivityClock } from "@runbound/runtime-kit";
import type { CellStatus, Kernel, KernelExit } from "./kernel.js";

/** The budgets of one cell. */
export interface CellBudgets {
  /** Milliseconds without output (bridge calls excepted) before the cell is stopped. */
  inactivityMs: number;
  /** Milliseconds a cell may run at all, output or not. */
  wallClockMs: number;
  /** Milliseconds an interrupted cell gets to stop before its kernel is killed. */
  interruptGraceMs: number;
  /** The same grace when the caller is gone: the host disposes soon after, so it is shorter. */
  cancelGraceMs: number;
}

/** Why a cell was stopped from outside. */
export type StopReason = "inactivity" | "wall-clock" | "cancelled";

/** How a cell ended. */
export type CellEnding =
  | { kind: "finished"; status: CellStatus }
  /** Stopped: interrupted with the state kept, or killed (`stateKept` false) when the interrupt did not take. */
  | { kind: "stopped"; reason: StopReason; stateKept: boolean }
  /** The kernel died by itself during the cell. */
  | { kind: "died"; exit: KernelExit };

/** What {@link runCell} needs besides the kernel. */
export interface RunCellOptions {
  code: string;
  transcript: CellTranscript;
  callTool(name: string, input: unknown): Promise<ToolResult>;
  signal: AbortSignal;
  budgets: CellBudgets;
}

/**
 * Run one cell under its budgets: the inactivity clock restarts on every output and is paused while
 * a bridge call is pending; on expiry, on the wall-clock cap or on cancellation the cell is
 * interrupted, and its kernel disposed when the interrupt does not take within the grace.
 */
export async function runCell(kernel: Kernel, options: RunCellOptions): Promise<CellEnding> {
  let reason: StopReason | undefined;
  let stopping: Promise<boolean> | undefined;
  const stop = (why: StopReason) => {
    if (stopping !== undefined) return;
    reason = why;
    clock.stop();
    clearTimeout(wallClock);
    const grace = why === "cancelled" ? options.budgets.cancelGraceMs : options.budgets.interruptGraceMs;
    stopping = kernel.interrupt(grace).then(async (kept) => {
      if (!kept) await kernel.dispose();
      return kept;
    });
  };
  const clock = startInactivityClock(options.budgets.inactivityMs, () => stop("inactivity"));
  const wallClock = setTimeout(() => stop("wall-clock"), options.budgets.wallClockMs);
  const onAbort = () => stop("cancelled");
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  let ending: CellEnding;
  try {
    const status = await kernel.execute({
      code: options.code,
      onOutput(output) {
        clock.touch();
        options.transcript.add(output);
      },
      callTool(name, input) {
        clock.pause();
        return options.callTool(name, input).finally(() => clock.resume());
      },
    });
    ending = { kind: "finished", status };
  } catch {
    ending = { kind: "died", exit: await kernel.exited };
  } finally {
    clock.stop();
    clearTimeout(wallClock);
    options.signal.removeEventListener("abort", onAbort);
  }
  if (stopping !== undefined) return { kind: "stopped", reason: reason!, stateKept: await stopping };
  return ending;
}
