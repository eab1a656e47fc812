// `--load`: two busy-looping Node children for the whole measurement, as other work on the machine
// would be; killed at the end, and checked gone in /proc.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** Start the hogs; `stop()` kills them and throws if one is still alive. */
export function startCpuHogs(count = 2) {
  const hogs = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  return {
    pids: hogs.map((hog) => hog.pid),
    async stop() {
      await Promise.all(
        hogs.map((hog) => {
          if (hog.exitCode !== null || hog.signalCode !== null) return undefined;
          const exited = new Promise((resolve) => hog.once("exit", resolve));
          hog.kill("SIGKILL");
          return exited;
        }),
      );
      const alive = hogs.filter((hog) => existsSync(`/proc/${hog.pid}`) && !/\) Z /.test(safeStat(hog.pid)));
      if (alive.length > 0) throw new Error(`CPU hogs still alive: ${alive.map((hog) => hog.pid).join(", ")}`);
      return hogs.map((hog) => hog.pid);
    },
  };
}

function safeStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "";
  }
}
