import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { binPath } from "./run-cli.js";

/** What became of one request sent to `runbound session`. */
export type SessionOutcome =
  | { kind: "answer"; answer: Record<string, unknown> }
  | { kind: "no_answer"; waitedMs: number }
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | null; stderr: string };

/** One `runbound session` child process, driven one request at a time as a runner would. */
export interface SessionProcess {
  /** Send `{"id":…, <fields>}` where `fields` is raw JSON object text without braces, and wait for its answer. */
  request(fields: string, waitMs: number): Promise<SessionOutcome>;
  /** Close stdin and wait for the exit; `undefined` if it did not exit within `waitMs` (it is then killed). */
  close(waitMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined>;
  /** Kill the process at once (after a request got no answer). */
  kill(): void;
  /** Lines on stdout that were not an answer to a pending request. */
  readonly strayLines: string[];
}

/** Start `runbound session --workdir <workdir>` from the built binary. */
export function startSession(workdir: string, env: NodeJS.ProcessEnv = process.env): SessionProcess {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [binPath, "session", "--workdir", workdir], { stdio: ["pipe", "pipe", "pipe"], env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  // A request written after the child died must not raise an unhandled EPIPE in the test process.
  child.stdin.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  const strayLines: string[] = [];
  let nextId = 1;
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    let answer: Record<string, unknown> | undefined;
    try {
      answer = JSON.parse(line) as Record<string, unknown>;
    } catch {
      answer = undefined;
    }
    const resolve = typeof answer?.["id"] === "number" ? waiting.get(answer["id"]) : undefined;
    if (answer === undefined || resolve === undefined) return void strayLines.push(line.slice(0, 500));
    waiting.delete(answer["id"] as number);
    resolve(answer);
  });

  return {
    async request(fields, waitMs) {
      const id = nextId++;
      let timer: NodeJS.Timeout | undefined;
      const answered = new Promise<SessionOutcome>((resolve) => waiting.set(id, (answer) => resolve({ kind: "answer", answer })));
      const timedOut = new Promise<SessionOutcome>((resolve) => (timer = setTimeout(() => resolve({ kind: "no_answer", waitedMs: waitMs }), waitMs)));
      const died = exited.then(({ code, signal }): SessionOutcome => ({ kind: "exited", code, signal, stderr }));
      child.stdin.write(`{"id":${id},${fields}}\n`);
      try {
        return await Promise.race([answered, timedOut, died]);
      } finally {
        clearTimeout(timer);
        waiting.delete(id);
      }
    },
    async close(waitMs) {
      child.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([exited, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)))]);
      clearTimeout(timer);
      if (result === undefined) child.kill("SIGKILL");
      return result;
    },
    kill() {
      child.kill("SIGKILL");
    },
    strayLines,
  };
}
