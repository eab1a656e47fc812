import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { CHECKER_FORMATS } from "./checker-formats.js";
import { runProjectChecker, type CheckerRunRequest } from "./project-checker.js";
import { checkerDirectory, hangingPids, SCRIPTED_CHECKER, stillRunning } from "./test-support/scripted-checkers.js";

function request(scenario: string, settings: Partial<CheckerRunRequest> = {}): CheckerRunRequest {
  return {
    binary: process.execPath,
    args: [SCRIPTED_CHECKER, scenario],
    root: checkerDirectory(),
    format: CHECKER_FORMATS.tsc,
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    ...settings,
  };
}

async function pidsOnceWritten(root: string): Promise<{ checker: number; helper: number }> {
  await expect.poll(() => hangingPids(root), { timeout: 10_000 }).toBeDefined();
  return hangingPids(root)!;
}

describe("runProjectChecker (scripted checkers as real child processes)", () => {
  it("a checker that hangs (ignoring SIGTERM, with a helper) is stopped at the timeout and nothing of it is left", async () => {
    const hanging = request("hang", { timeoutMs: 1_500 });
    const run = await runProjectChecker(hanging);
    const pids = await pidsOnceWritten(hanging.root);
    expect(run.kind).toBe("timed_out");
    expect(run.kind === "timed_out" && run.stderr).toEqual(["checking 1200 files", "ignoring SIGTERM"]);
    expect(await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 30_000);

  it("aborting the call stops the checker and its group, and rejects with `cancelled`", async () => {
    const controller = new AbortController();
    const hanging = request("hang", { signal: controller.signal });
    const running = runProjectChecker(hanging);
    const pids = await pidsOnceWritten(hanging.root);
    controller.abort();
    const error = await running.catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe("cancelled");
    expect((error as Error).message).toContain(
      `while \`${process.execPath}\` was checking \`${hanging.root}\`; it was stopped`,
    );
    expect(await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 30_000);

  it("a call already aborted starts nothing it leaves behind", async () => {
    const controller = new AbortController();
    controller.abort();
    const hanging = request("hang", { signal: controller.signal });
    await expect(runProjectChecker(hanging)).rejects.toMatchObject({ code: "cancelled" });
    const pids = hangingPids(hanging.root);
    expect(pids === undefined ? [] : await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 30_000);

  it("a checker that prints 100 MB keeps only the cap in memory, runs to its end, and says the output was cut", async () => {
    const maxOutputBytes = 64 * 1024;
    const run = await runProjectChecker(request("flood", { maxOutputBytes }));
    if (run.kind !== "checked") throw new Error(`expected a checked run, got ${JSON.stringify(run)}`);
    expect(run.exit.code).toBe(2);
    expect(run.cut).toBe(true);
    const lineBytes = Buffer.byteLength(
      "src/generated.ts(1,1): error TS2304: Cannot find name 'generatedIdentifierThatDoesNotExistAnywhere'.\n",
    );
    expect(run.diagnostics.length).toBe(Math.floor(maxOutputBytes / lineBytes));
    // The cut falls inside a line; the last finding kept is a whole one.
    expect(run.diagnostics.at(-1)!.message).toBe("Cannot find name 'generatedIdentifierThatDoesNotExistAnywhere'.");
  }, 60_000);

  it("a checker that exits non-zero with nothing readable is unreadable with its last stderr lines, never clean", async () => {
    const run = await runProjectChecker(request("crash"));
    expect(run).toMatchObject({
      kind: "unreadable",
      exit: { code: 2, signal: null },
      cut: false,
      stderr: [
        "panic: runtime error: index out of range [3] with length 3",
        "",
        "goroutine 1 [running]:",
        "main.main()",
      ],
    });
    expect(run.kind === "unreadable" && run.ms).toBeGreaterThanOrEqual(0);
    expect(run.kind === "unreadable" && run.ms).toBeLessThan(600_000);
  }, 30_000);

  it("a stderr-format checker's failure quotes only its last 20 lines", async () => {
    const run = await runProjectChecker(request("crash-loud", { format: CHECKER_FORMATS["go-vet"] }));
    if (run.kind !== "unreadable") throw new Error(`expected an unreadable run, got ${run.kind}`);
    expect(run.stderr.map((line) => line.slice(0, 3))).toEqual(
      Array.from({ length: 20 }, (_, index) => String(81 + index).padStart(3, "0")),
    );
  }, 30_000);

  it("a stderr-format checker that writes more than the kept lines is read from its last ones and says it was cut", async () => {
    const run = await runProjectChecker(request("go-vet-flood", { format: CHECKER_FORMATS["go-vet"] }));
    if (run.kind !== "checked") throw new Error(`expected a checked run, got ${run.kind}`);
    expect(run.cut).toBe(true);
    expect(run.diagnostics).toHaveLength(2_000);
    expect(run.diagnostics[0]).toEqual({ file: "main.go", line: 1001, severity: "warning", message: "finding 1001" });
  }, 30_000);

  it("output that is not in the checker's format at all is unreadable even with exit code 0", async () => {
    expect(await runProjectChecker(request("clean", { format: CHECKER_FORMATS["pyright-json"] }))).toMatchObject({
      kind: "unreadable",
      exit: { code: 0 },
    });
  }, 30_000);

  it("the call's own deadline passing stops the checker and rejects with `timeout`", async () => {
    const controller = new AbortController();
    const hanging = request("hang", { signal: controller.signal });
    const running = runProjectChecker(hanging);
    const pids = await pidsOnceWritten(hanging.root);
    controller.abort(new DOMException("The call's budget passed.", "TimeoutError"));
    await expect(running).rejects.toMatchObject({
      code: "timeout",
      message: expect.stringContaining(`The call's budget ran out while \`${process.execPath}\` was checking`),
    });
    expect(await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 30_000);

  it("a clean exit without output is a checked run with no findings", async () => {
    expect(await runProjectChecker(request("clean"))).toMatchObject({
      kind: "checked",
      exit: { code: 0 },
      diagnostics: [],
      cut: false,
    });
  }, 30_000);

  it("reads a stderr format (go vet) from the stderr lines", async () => {
    const run = await runProjectChecker(request("go-vet", { format: CHECKER_FORMATS["go-vet"] }));
    expect(run).toMatchObject({
      kind: "checked",
      cut: false,
      diagnostics: [
        { file: "sub/a.go", line: 3, severity: "warning", message: "unreachable code" },
        { file: "main.go", line: 9, severity: "error", message: "undefined: helper" },
      ],
    });
  }, 30_000);

  it("a program that cannot be started is reported, not thrown", async () => {
    const run = await runProjectChecker(request("clean", { binary: "/nonexistent/bin/tsc" }));
    expect(run).toMatchObject({ kind: "not_started", reason: expect.stringContaining("ENOENT") });
  });
});
