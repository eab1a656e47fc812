import { defineTool, textResult, VibeMode } from "@runbound/tool-kit";
import * as v from "valibot";
import { workerView } from "./describe-worker.js";
import { VibeRoster } from "./vibe-roster.js";
import { workerIdSchema } from "./worker-id-schema.js";
import { changeOutputSchema } from "./worker-view-schema.js";

/** vibe_kill: stop a worker for good. */
export const vibeKillTool = defineTool({
  name: "vibe_kill",
  title: "Stop a background worker",
  tier: "read",
  description:
    "Stop a worker for good: a running worker is ended with every process it started, a queued one never starts. Safe to repeat; a worker that already ended keeps its status and result.",
  input: v.strictObject({ worker_id: workerIdSchema }),
  requires: [VibeRoster, VibeMode],
  parallelSafe: true,
  output: changeOutputSchema,
  // Stopping a worker mid-task can leave its edits half done: not read-only, though killing twice does nothing more.
  hints: { readOnly: false, idempotent: true },
  run: async (input, context) => {
    const { previousStatus, snapshot } = await context.resource(VibeRoster).kill(input.worker_id);
    const what =
      previousStatus === "running"
        ? `was running and has been stopped, with every process it started`
        : previousStatus === "queued"
          ? "was queued and will never start"
          : previousStatus === "killed"
            ? "was already killed; nothing to do"
            : `had already ended (${previousStatus}); nothing to stop, and its result stays available through vibe_wait`;
    return textResult(`worker_id: ${snapshot.id}\nWorker \`${snapshot.id}\` ${what}.`, {
      previous_status: previousStatus,
      worker: workerView(snapshot, 200),
    });
  },
});
