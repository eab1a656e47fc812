// What both raw peers share: a child that prints "ready", then answers each JSON line of code on
// stdin with one line on stdout.
import { createInterface } from "node:readline";

/** Drive a spawned child that speaks one line per cell; resolves once it printed its first line. */
export async function driveLineChild(child) {
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  await new Promise((resolve) => waiting.push(resolve));
  return {
    pid: child.pid,
    run(code) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(code)}\n`);
      });
    },
    async stop() {
      child.kill("SIGKILL");
      await new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve),
      );
    },
  };
}
