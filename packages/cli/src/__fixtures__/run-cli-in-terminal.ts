import { spawn } from "node:child_process";
import { binPath } from "./run-cli.js";

/** A shell word for `sh -c`: single-quoted, with single quotes escaped. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Run `runbound` under a real pseudo-terminal (script(1)), so its stdin and stdout are TTYs as when
 * a person types the command. Each reply is typed once the output shows one more `> ` prompt than
 * before. Resolves with the exit code and everything the terminal showed.
 */
export function runCliInTerminal(args: readonly string[], replies: readonly string[], options: { cwd?: string } = {}): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, binPath, ...args].map(shellQuote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qefc", command, "/dev/null"], { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    let typed = 0;
    const onOutput = (chunk: Buffer): void => {
      screen += chunk.toString();
      const prompts = screen.split("\n> ").length - 1;
      if (prompts > typed && typed < replies.length) child.stdin.write(`${replies[typed++]}\n`);
    };
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, screen: screen.replace(/\r\n/g, "\n") }));
  });
}
