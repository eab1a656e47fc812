// Swaps a directory for a symlink to another directory and back, as fast as it can, for a bounded
// number of rounds: what an attacker (or a checkout) does to a path while a tool writes under it.
// Usage: node directory-swapper.mjs <directory> <link-target> <rounds> [dwell-ms]
// dwell-ms keeps the real directory in place that long each round, for callers that need two
// windows in a row (a read, then a write).
import { renameSync, symlinkSync, unlinkSync, writeSync } from "node:fs";

const [directory, target, rounds, dwell = "0"] = process.argv.slice(2);
const dwellMs = Number(dwell);
const pause = new Int32Array(new SharedArrayBuffer(4));
const parked = `${directory}.parked`;
let swaps = 0;
let created = 0;

// The tool under test may create the missing directory in a gap of the swap (it makes missing
// parents): move such a directory aside (it stays inside the workdir) and take the place again.
function take(place) {
  for (;;) {
    try {
      place();
      return;
    } catch (error) {
      if (error.code !== "EEXIST" && error.code !== "ENOTEMPTY") throw error;
      renameSync(directory, `${directory}.created-${created++}`);
    }
  }
}

function restore() {
  try {
    unlinkSync(directory);
  } catch {
    // Already the real directory.
  }
  try {
    take(() => renameSync(parked, directory));
  } catch {
    // Nothing parked.
  }
}

process.on("SIGTERM", () => {
  restore();
  // Synchronously: an asynchronous pipe write would be lost to the exit.
  writeSync(1, `${swaps}\n`);
  process.exit(0);
});
for (let round = 0; round < Number(rounds); round++) {
  renameSync(directory, parked);
  take(() => symlinkSync(target, directory));
  unlinkSync(directory);
  take(() => renameSync(parked, directory));
  swaps += 1;
  if (dwellMs > 0) Atomics.wait(pause, 0, 0, dwellMs);
  // Let the event loop see SIGTERM now and then.
  if (round % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
}
writeSync(1, `${swaps}\n`);
