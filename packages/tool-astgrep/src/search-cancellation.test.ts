import { resultErrorCode, resultText, ToolError } from "@runbound/tool-kit";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParserRun } from "./__fixtures__/create-parser-run.js";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";

// Few, large files: reading them takes milliseconds, parsing them seconds, so an abort lands while
// napi works (the phase that used to ignore the signal).
const fileCount = 16;
const linesPerFile = 4000;
const pattern = "$A.$B($C, $D)";
let workspace: TempWorkspace;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let file = 0; file < fileCount; file++) {
    const lines = Array.from(
      { length: linesPerFile },
      (_, line) => `const v${line} = item${line % 13}.call${file}(first${line}, (x) => x + ${line});`,
    );
    files[`src/module${String(file).padStart(2, "0")}.ts`] = `${lines.join("\n")}\n`;
  }
  workspace = await createTempWorkspace(files);
}, 60_000);
afterAll(() => workspace.cleanup());

function createRun() {
  return createParserRun(workspace.dir);
}

function cpuMilliseconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

describe("a search that is told to stop", () => {
  it("answers with the abort's reason within a fraction of the full search, and leaves no work running", async () => {
    const run = createRun();
    const fullStarted = performance.now();
    const fullCpuBefore = cpuMilliseconds();
    const full = await run.call("ast_grep", { pattern, max_results: 1 });
    const fullMs = performance.now() - fullStarted;
    const fullCpuMs = cpuMilliseconds() - fullCpuBefore;
    expect(full.structured?.["total"], resultText(full)).toBe(fileCount * linesPerFile);

    // A fresh run, so the parse cache of the first one cannot answer this search before the abort.
    const controller = new AbortController();
    const started = performance.now();
    const answer = createRun().call("ast_grep", { pattern }, { signal: controller.signal });
    await sleep(50);
    const abortedAt = performance.now();
    controller.abort(
      new ToolError({ code: "cancelled", message: "Tool `ast_grep` was cancelled before it finished." }),
    );
    const result = await answer;
    const answeredAfterMs = performance.now() - abortedAt;
    expect(resultErrorCode(result), resultText(result)).toBe("cancelled");
    expect(resultText(result)).toContain("was cancelled before it finished");
    // One batch (at most 1 MiB) is left to finish after the abort; the whole search is ~4 MB.
    expect(
      answeredAfterMs,
      `full search ${Math.round(fullMs)} ms, cancelled one answered ${Math.round(answeredAfterMs)} ms after the abort`,
    ).toBeLessThan(Math.max(1000, fullMs * 0.4));
    expect(performance.now() - started).toBeLessThan(fullMs);

    // Nothing keeps parsing once the call answered (napi's threads count in this process's CPU time):
    // over as long as the whole search took, at most the batch in flight finishes — far less than the
    // CPU the whole search needed, whatever the machine's load.
    const cpuBefore = cpuMilliseconds();
    await sleep(fullMs);
    const afterwardsCpuMs = cpuMilliseconds() - cpuBefore;
    expect(afterwardsCpuMs, `the full search used ${Math.round(fullCpuMs)} ms of CPU`).toBeLessThan(fullCpuMs * 0.5);
  }, 120_000);

  it("answers `timeout` when the budget ran out, as the host's abort reason says", async () => {
    const controller = new AbortController();
    const answer = createRun().call("ast_grep", { pattern }, { signal: controller.signal });
    await sleep(50);
    controller.abort(
      new ToolError({ code: "timeout", message: "Tool `ast_grep` did not finish within 50 ms and was stopped." }),
    );
    const result = await answer;
    expect(resultErrorCode(result)).toBe("timeout");
    expect(resultText(result)).toContain("did not finish within 50 ms");
  }, 60_000);

  it("answers `cancelled` for a plain abort without a reason, and `timeout` for AbortSignal.timeout()", async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = await createRun().call("ast_grep", { pattern }, { signal: controller.signal });
    expect(resultErrorCode(cancelled)).toBe("cancelled");
    const timedOut = await createRun().call(
      "ast_edit",
      { pattern, rewrite: "$A.$B($D, $C)" },
      { signal: AbortSignal.timeout(50) },
    );
    expect(resultErrorCode(timedOut)).toBe("timeout");
    expect(resultText(timedOut)).toContain("ran out of time");
  }, 60_000);
});
