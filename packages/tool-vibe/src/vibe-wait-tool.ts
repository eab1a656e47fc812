import { defineTool, textResult, ToolError, VibeMode } from "@runbound/tool-kit";
import * as v from "valibot";
import { describeStatus, formatDuration, outputTail, workerView } from "./describe-worker.js";
import { VibeRoster, type WaitOutcome } from "./vibe-roster.js";
import { workerIdSchema } from "./worker-id-schema.js";
import { waitOutputSchema } from "./worker-view-schema.js";

const defaultTimeoutSeconds = 30;
const maxTimeoutSeconds = 600;
const resultChars = 12_000;
const progressChars = 2_000;

function checkedTimeout(seconds: number | undefined): number {
  const value = seconds ?? defaultTimeoutSeconds;
  if (!Number.isFinite(value) || value < 1 || value > maxTimeoutSeconds) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`timeout_seconds\` is \`${value}\`; give a number of seconds from 1 to ${maxTimeoutSeconds} (default ${defaultTimeoutSeconds}).`,
    });
  }
  return value;
}

function describeEnded({ snapshot }: WaitOutcome): string {
  if (snapshot.status === "completed") return `result:\n${outputTail(snapshot, resultChars)}`;
  const output = snapshot.output.length === 0 ? "It wrote no output." : `output:\n${outputTail(snapshot, resultChars)}`;
  if (snapshot.status === "failed") return `failure: ${snapshot.failure ?? "unknown"}\n${output}`;
  return `It was stopped before it finished. ${output}`;
}

function describeTimedOut({ snapshot, waitsWithoutProgress }: WaitOutcome, waitedMs: number): string {
  const lines = [`Still ${snapshot.status} after this ${formatDuration(waitedMs)} wait; that is not a failure.`];
  if (waitsWithoutProgress >= 2) {
    lines.push(
      `This is wait ${waitsWithoutProgress} in a row without any progress (no output, no change): the worker may be stuck. Consider vibe_kill to stop it or vibe_send to amend its brief and re-run it; wait again only if the task is known to be long and silent.`,
    );
  } else if (waitsWithoutProgress === 1) {
    lines.push("It made no progress since your last wait (no new output).");
  }
  if (snapshot.output.length > 0) lines.push(`output so far:\n${outputTail(snapshot, progressChars)}`);
  lines.push("Carry on with other work and wait again later, rather than waiting back to back.");
  return lines.join("\n");
}

/** vibe_wait: block until a worker's run ends or the time runs out. */
export const vibeWaitTool = defineTool({
  name: "vibe_wait",
  title: "Wait for a background worker",
  tier: "read",
  description: `Wait until a worker's current run ends, then answer its status and result (the end of its output, at most ${resultChars} characters). If the time runs out first, answers its status and liveness instead; that is not a failure, the worker goes on. Repeated waits without progress are pointed out. Do not wait by reflex: do other work between waits.`,
  input: v.strictObject({
    worker_id: workerIdSchema,
    timeout_seconds: v.optional(
      v.pipe(
        v.number(),
        v.description(`The longest to wait, from 1 to ${maxTimeoutSeconds} seconds; default ${defaultTimeoutSeconds}.`),
      ),
    ),
  }),
  requires: [VibeRoster, VibeMode],
  parallelSafe: true,
  output: waitOutputSchema,
  // The longest wait and a margin: the host's default budget (120 s) would cut a long wait short.
  timeoutMs: (maxTimeoutSeconds + 30) * 1000,
  run: async (input, context) => {
    const timeoutMs = checkedTimeout(input.timeout_seconds) * 1000;
    const outcome = await context.resource(VibeRoster).wait(input.worker_id, { timeoutMs, signal: context.signal });
    const { snapshot } = outcome;
    const text = [
      `worker_id: ${snapshot.id}`,
      `status: ${describeStatus(snapshot)}`,
      outcome.timedOut ? describeTimedOut(outcome, timeoutMs) : describeEnded(outcome),
    ].join("\n");
    return textResult(text, {
      timed_out: outcome.timedOut,
      waits_without_progress: outcome.waitsWithoutProgress,
      worker: workerView(snapshot, outcome.timedOut ? progressChars : resultChars),
    });
  },
});
