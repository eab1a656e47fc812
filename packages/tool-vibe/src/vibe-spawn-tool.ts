import { defineTool, textResult, VibeMode } from "@runbound/tool-kit";
import * as v from "valibot";
import { checkedText } from "@runbound/runtime-kit";
import { workerView } from "./describe-worker.js";
import { VibeRoster, WORKER_TIERS } from "./vibe-roster.js";
import { spawnOutputSchema } from "./worker-view-schema.js";

const maxBriefLength = 100_000;
const maxLabelLength = 80;
const pointAtFiles = "Shorten it (point the worker at files instead of pasting them).";

/** vibe_spawn: start a background worker and answer at once with its id. */
export const vibeSpawnTool = defineTool({
  name: "vibe_spawn",
  title: "Start a background worker",
  tier: "read",
  description:
    "Start a background worker (another agent) on a self-contained brief; answers at once with `worker_id: wN`. The worker sees nothing of this conversation, so the brief must say everything: the goal, the files, what to report back. Workers run alongside you (beyond the run's concurrency they wait queued). Use them only for well-scoped, parallel work; give workers disjoint sets of files to change. A worker's tools never go beyond yours (in plan mode they are read-only). Then carry on and call vibe_wait when you need the result; vibe_send amends the brief and re-runs, vibe_kill stops, vibe_list shows all.",
  input: v.strictObject({
    brief: v.pipe(
      v.string(),
      v.description(
        `The complete task for the worker, at most ${maxBriefLength} characters; it is given to the worker as its whole prompt.`,
      ),
    ),
    label: v.pipe(
      v.string(),
      v.description(`A short name for lists, at most ${maxLabelLength} characters, e.g. \`tests for the parser\`.`),
    ),
    tier: v.optional(
      v.pipe(
        v.picklist(WORKER_TIERS),
        v.description("`fast` for small, mechanical jobs; `good` for harder ones. Default: the run's default tier."),
      ),
    ),
  }),
  requires: [VibeRoster, VibeMode],
  parallelSafe: true,
  output: spawnOutputSchema,
  // A read tool so a plan caller may delegate, but the worker it starts goes on with tools up to the
  // caller's ceiling: not read-only, possibly destructive, reaching its model's API.
  hints: { readOnly: false, openWorld: true },
  run: async (input, context) => {
    const roster = context.resource(VibeRoster);
    const snapshot = roster.spawn({
      brief: checkedText("brief", input.brief, maxBriefLength, {
        whenEmpty: "Give the complete task for the worker.",
        whenTooLong: pointAtFiles,
      }),
      label: checkedText("label", input.label, maxLabelLength, {
        whenEmpty: "Give a short name such as `tests for the parser`.",
        whenTooLong: "Shorten it.",
      }),
      tier: input.tier ?? context.resource(VibeMode).defaultWorkerTier,
      ceiling: context.run.caller.ceiling,
    });
    const state =
      snapshot.status === "queued"
        ? `is queued at tier ${snapshot.tier}: all ${roster.concurrency} worker slots are busy, and it starts when one frees`
        : `is running at tier ${snapshot.tier}`;
    return textResult(
      [
        `worker_id: ${snapshot.id}`,
        `Worker \`${snapshot.id}\` ("${snapshot.label}") ${state}; its tools go up to tier \`${snapshot.ceiling}\`.`,
        `It works in the background: carry on, and call vibe_wait with worker_id "${snapshot.id}" when you need its result (vibe_list shows every worker).`,
      ].join("\n"),
      { worker: workerView(snapshot, 200) },
    );
  },
});
