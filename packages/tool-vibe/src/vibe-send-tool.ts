import { defineTool, textResult, VibeMode } from "@runbound/tool-kit";
import * as v from "valibot";
import { checkedText } from "@runbound/runtime-kit";
import { workerView } from "./describe-worker.js";
import { VibeRoster, type WorkerStatus } from "./vibe-roster.js";
import { workerIdSchema } from "./worker-id-schema.js";
import { changeOutputSchema } from "./worker-view-schema.js";

const maxMessageLength = 20_000;

const previousRun: Record<WorkerStatus, string> = {
  queued: "was still queued and never started",
  running: "was stopped while running",
  completed: "had completed",
  failed: "had failed",
  killed: "had been killed",
};

/** vibe_send: amend a worker's brief and re-run it. */
export const vibeSendTool = defineTool({
  name: "vibe_send",
  title: "Amend a worker's brief and re-run it",
  tier: "read",
  description:
    "Append a message to a worker's brief, stop its current run (its processes included) and start the next run from the start with the amended brief; the run number goes up by one. Use it to correct or extend a task, or to re-run a failed or finished worker. A killed worker cannot be re-run.",
  input: v.strictObject({
    worker_id: workerIdSchema,
    message: v.pipe(
      v.string(),
      v.description(
        `What to add to the brief, at most ${maxMessageLength} characters; it is appended after a blank line.`,
      ),
    ),
  }),
  requires: [VibeRoster, VibeMode],
  parallelSafe: true,
  output: changeOutputSchema,
  // A read tool so a plan caller may delegate, but the worker it starts goes on with tools up to the
  // caller's ceiling: not read-only, possibly destructive, reaching its model's API.
  hints: { readOnly: false, openWorld: true },
  run: async (input, context) => {
    const message = checkedText("message", input.message, maxMessageLength, {
      whenEmpty: "Give what to add to the worker's brief.",
      whenTooLong: "Shorten it (point the worker at files instead of pasting them).",
    });
    const { previousStatus, snapshot } = await context
      .resource(VibeRoster)
      .send(input.worker_id, message, context.run.caller.ceiling);
    return textResult(
      [
        `worker_id: ${snapshot.id}`,
        `Run ${snapshot.run} of worker \`${snapshot.id}\` has your message appended to its brief and is ${snapshot.status}; run ${snapshot.run - 1} ${previousRun[previousStatus]}.`,
        `Call vibe_wait with worker_id "${snapshot.id}" for the new run's result.`,
      ].join("\n"),
      { previous_status: previousStatus, worker: workerView(snapshot, 200) },
    );
  },
});
