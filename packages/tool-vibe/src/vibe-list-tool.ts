import { defineTool, textResult, VibeMode } from "@runbound/tool-kit";
import * as v from "valibot";
import { tailOf } from "@runbound/runtime-kit";
import { describeStatus, workerView } from "./describe-worker.js";
import { VibeRoster, type WorkerSnapshot, type WorkerStatus } from "./vibe-roster.js";
import { listOutputSchema } from "./worker-view-schema.js";

const maxTextBytes = 15 * 1024;
const resultChars = 200;

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function describeWorker(snapshot: WorkerSnapshot): string {
  const result = snapshot.status === "failed" ? (snapshot.failure ?? "") : snapshot.output;
  const label = snapshot.status === "failed" ? "failure" : snapshot.status === "completed" ? "result" : "last output";
  const tail = tailOf(oneLine(result), resultChars);
  return `${snapshot.id} "${snapshot.label}" tier ${snapshot.tier}, ${describeStatus(snapshot)}${tail.length > 0 ? `\n    ${label}: ${tail}` : ""}`;
}

function countByStatus(snapshots: readonly WorkerSnapshot[]): string {
  const counts = new Map<WorkerStatus, number>();
  for (const snapshot of snapshots) counts.set(snapshot.status, (counts.get(snapshot.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(", ");
}

/** vibe_list: every worker of the run with its status, liveness and last result. */
export const vibeListTool = defineTool({
  name: "vibe_list",
  title: "List background workers",
  tier: "read",
  description: `List every worker of this run: id, label, tier, status (queued, running, completed, failed, killed), run number, elapsed time, time since its last output, and the end of its last result (${resultChars} characters; vibe_wait gives the whole result). The list is complete each time; trust it over what you remember.`,
  input: v.strictObject({}),
  requires: [VibeRoster, VibeMode],
  parallelSafe: true,
  output: listOutputSchema,
  run: async (_input, context) => {
    const roster = context.resource(VibeRoster);
    const snapshots = roster.list();
    const structured = { workers: snapshots.map((snapshot) => workerView(snapshot, resultChars)) };
    if (snapshots.length === 0) return textResult("No workers in this run yet. Start one with vibe_spawn.", structured);
    const header = `${snapshots.length} ${snapshots.length === 1 ? "worker" : "workers"} (${countByStatus(snapshots)}); at most ${roster.concurrency} run at once.`;
    const rows: string[] = [];
    let bytes = Buffer.byteLength(header);
    for (const snapshot of snapshots) {
      const row = describeWorker(snapshot);
      bytes += Buffer.byteLength(row) + 1;
      if (bytes > maxTextBytes) break;
      rows.push(row);
    }
    structured.workers.length = rows.length;
    const footer =
      rows.length < snapshots.length
        ? `\n… ${snapshots.length - rows.length} more not shown; ask vibe_wait about a worker by id.`
        : "";
    return textResult(`${header}\n${rows.join("\n")}${footer}`, structured);
  },
});
