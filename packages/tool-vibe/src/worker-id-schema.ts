import * as v from "valibot";

/** The `worker_id` field of vibe_send, vibe_wait and vibe_kill. */
export const workerIdSchema = v.pipe(
  v.string(),
  v.description("The worker's id as vibe_spawn answered it, e.g. `w1`."),
);
