import { listProcesses } from "@runbound/runtime-kit/testing";
import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startNativePythonKernel } from "./native-python-kernel.js";

// Interpreters that misbehave, as real programs: one that dies at once, one that never answers.
function fakeInterpreter(script: string): { workdir: string; path: string } {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-eval-fault-")));
  const path = join(workdir, "python");
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return { workdir, path };
}

async function running(pid: number): Promise<boolean> {
  return (await listProcesses()).some((row) => row.pid === pid && row.state !== "Z");
}

describe("startNativePythonKernel faults", () => {
  it("an interpreter that exits before it is ready is unavailable, with its exit and stderr", async () => {
    const { workdir, path } = fakeInterpreter("echo 'not a python' >&2\nexit 2");
    const start = startNativePythonKernel({
      workdir,
      signal: new AbortController().signal,
      interpreter: { path, shown: "python", origin: "candidate" },
    });
    await expect(start).rejects.toMatchObject({
      code: "unavailable",
      message:
        "The Python kernel at `python` stopped before it was ready (exit code 2; its last stderr lines:\nnot a python). Check that it is CPython 3.8 or newer.",
    });
  });

  it("an interpreter that never says ready is stopped after the start budget", async () => {
    const { workdir, path } = fakeInterpreter("echo $$ > pid\nexec sleep 300");
    const start = startNativePythonKernel({
      workdir,
      signal: new AbortController().signal,
      interpreter: { path, shown: "python", origin: "candidate" },
      startTimeoutMs: 1_000,
    });
    await expect(start).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(
        /^The Python kernel at `python` did not become ready within 1000 ms; check that it starts/,
      ),
    });
    expect(await running(Number(readFileSync(join(workdir, "pid"), "utf8")))).toBe(false);
  });

  it("a frame without the channel's secret is not obeyed: a forged ready does not make the kernel ready", async () => {
    const { workdir, path } = fakeInterpreter(
      `echo $$ > pid\necho '${JSON.stringify({ type: "ready", version: "3.11.0", implementation: "CPython", executable: "python" })}'\nexec sleep 300`,
    );
    const start = startNativePythonKernel({
      workdir,
      signal: new AbortController().signal,
      interpreter: { path, shown: "python", origin: "candidate" },
      startTimeoutMs: 1_000,
    });
    await expect(start).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/^The Python kernel at `python` did not become ready within 1000 ms/),
    });
    expect(await running(Number(readFileSync(join(workdir, "pid"), "utf8")))).toBe(false);
  });

  it("a frame with the secret that is not JSON (damaged) stops the process: the channel cannot be trusted", async () => {
    // The first line the host writes gives the secret; a damaged frame starts with it.
    const { workdir, path } = fakeInterpreter(
      `echo $$ > pid\nread -r line\nsecret=$(printf '%s' "$line" | sed 's/.*"secret":"\\([0-9a-f]*\\)".*/\\1/')\necho "$secret {garbage"\nexec sleep 300`,
    );
    const start = startNativePythonKernel({
      workdir,
      signal: new AbortController().signal,
      interpreter: { path, shown: "python", origin: "candidate" },
    });
    await expect(start).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(
        /^The Python kernel at `python` stopped before it was ready \(signal SIG(TERM|KILL)\)/,
      ),
    });
    expect(await running(Number(readFileSync(join(workdir, "pid"), "utf8")))).toBe(false);
  });

  it("an aborted start rejects with the signal's reason and leaves nothing running", async () => {
    const { workdir, path } = fakeInterpreter("echo $$ > pid\nexec sleep 300");
    const controller = new AbortController();
    const start = startNativePythonKernel({
      workdir,
      signal: controller.signal,
      interpreter: { path, shown: "python", origin: "candidate" },
    });
    setTimeout(() => controller.abort(new Error("the run ended")), 500);
    await expect(start).rejects.toThrow("the run ended");
    expect(await running(Number(readFileSync(join(workdir, "pid"), "utf8")))).toBe(false);
  });
});
