import { delimiter, join } from "node:path";
import { isExecutableFile } from "./is-executable-file.js";
import { runToCompletion } from "./run-to-completion.js";

/** Whether bubblewrap can make sandboxes here, and if not, why. */
export type BubblewrapAvailability =
  { available: true; bwrap: string; version: string } | { available: false; reason: string };

const probeTimeoutMs = 5_000;

async function findOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const directory of (env["PATH"] ?? "").split(delimiter)) {
    if (directory === "") continue;
    const candidate = join(directory, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.trim() ?? "";
}

async function run(program: string, args: readonly string[]): Promise<{ failure: string | undefined; stdout: string }> {
  try {
    const done = await runToCompletion({ command: program, args, timeoutMs: probeTimeoutMs });
    if (done.ending === "timed_out") return { failure: `no answer within ${probeTimeoutMs} ms`, stdout: done.stdout };
    if (done.exit.code !== 0)
      return {
        failure: firstLine(done.stderr.join("\n")) || `exit code ${done.exit.code ?? done.exit.signal}`,
        stdout: done.stdout,
      };
    return { failure: undefined, stdout: done.stdout };
  } catch (error) {
    return { failure: (error as Error).message, stdout: "" };
  }
}

/**
 * Find `bwrap` on PATH and check that it can make a sandbox here: user, PID and network namespaces
 * may be refused (inside a container without them, with unprivileged user namespaces turned off).
 * It starts `true` in a sandbox once, a few milliseconds.
 */
export async function detectBubblewrap(env: NodeJS.ProcessEnv = process.env): Promise<BubblewrapAvailability> {
  const bwrap = await findOnPath("bwrap", env);
  if (bwrap === undefined)
    return {
      available: false,
      reason: "bubblewrap (`bwrap`) is not on PATH; install it (Debian and Ubuntu: apt-get install bubblewrap)",
    };
  const probe = await run(bwrap, ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--", "true"]);
  if (probe.failure !== undefined) {
    return {
      available: false,
      reason: `\`${bwrap}\` cannot make a sandbox here (${probe.failure}); user namespaces may be disabled, or this is a container without them`,
    };
  }
  const version = await run(bwrap, ["--version"]);
  return {
    available: true,
    bwrap,
    version: firstLine(version.stdout).replace(/^bubblewrap\s+/, "") || "unknown version",
  };
}
