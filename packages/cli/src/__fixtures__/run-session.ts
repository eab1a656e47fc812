import { expect } from "vitest";
import { runCli } from "./run-cli.js";

/** `runbound session -C <project>` fed one JSON request per line; resolves with the responses in order, after checking it exited 0 with nothing on stderr. */
export async function runSession(project: string, args: readonly string[], requests: readonly object[], env?: NodeJS.ProcessEnv): Promise<Array<Record<string, unknown>>> {
  const { code, stdout, stderr } = await runCli(["session", "-C", project, ...args], { stdin: requests.map((request) => JSON.stringify(request)).join("\n") + "\n", ...(env === undefined ? {} : { env }) });
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The text parts of one session response's tool result. */
export function resultTextOf(response: Record<string, unknown>): string {
  const result = response["result"] as { content: Array<{ type: string; text?: string }> };
  return result.content.map((part) => part.text ?? "").join("\n");
}
