import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built binary, run as users run it. */
export const binPath = fileURLToPath(new URL("../../bin/runbound.js", import.meta.url));

/** Run `runbound` as a real child process; resolves with its exit code and output. */
export function runCli(args: readonly string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"], env: options.env ?? process.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
