// What both astgrep benchmarks measure: a child process under GNU time, and the medians of runs.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

export const timeBinary = "/usr/bin/time";

/**
 * Run `command` under GNU time: its output, exit status, wall and CPU (user + sys) seconds and peak RSS.
 * `env` adds variables to this process's environment for the child.
 */
export function timed(command, args, cwd, env = {}) {
  const result = spawnSync(timeBinary, ["-f", "__time__ %e %U %S %M", command, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, ...env },
  });
  const line = result.stderr.split("\n").find((text) => text.startsWith("__time__"));
  if (line === undefined) throw new Error(`${command} failed: ${result.stderr.slice(0, 2000)}`);
  const [, wall, user, system, maxKb] = line.split(" ");
  return {
    stdout: result.stdout,
    status: result.status,
    wallS: Number(wall),
    cpuS: Number(user) + Number(system),
    peakMb: Number(maxKb) / 1024,
  };
}

export function median(values) {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Medians of wall and CPU, the highest peak; for the tool also the in-process call's wall time. */
export function summarize(cliRuns, toolRuns) {
  return {
    cli: {
      wallS: median(cliRuns.map((run) => run.wallS)),
      cpuS: median(cliRuns.map((run) => run.cpuS)),
      peakMb: Math.max(...cliRuns.map((run) => run.peakMb)),
    },
    tool: {
      wallS: median(toolRuns.map((run) => run.wallS)),
      cpuS: median(toolRuns.map((run) => run.cpuS)),
      peakMb: Math.max(...toolRuns.map((run) => run.peakMb)),
      callWallS: median(toolRuns.map((run) => run.inProcess.wallMs / 1000)),
      callCpuS: median(toolRuns.map((run) => run.inProcess.cpuMs / 1000)),
    },
  };
}

/** The machine's load averages over 1, 5 and 15 minutes, to print next to every figure. */
export function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}
