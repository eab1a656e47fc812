import { listProcesses } from "@runbound/runtime-kit/testing";
import { createRun, type Run } from "@runbound/runner-adapter";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
} from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { putPlugin } from "./test-support/put-tool.js";
import { fakeProject, living, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
const runs: Run[] = [];
/** Every server process group a test saw; all must be gone once its supervisor is disposed. */
const groups = new Set<number>();
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.close()));
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
  for (const pgid of groups) expect(await living(pgid)).toEqual([]);
  groups.clear();
});

async function setUp(scenario: string, settings: Omit<LspSupervisorSettings, "servers"> = {}) {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [scriptedServer(scenario)], stopGraceMs: 300, ...settings });
  supervisors.push(supervisor);
  const run = createRun({ plugins: [lspPlugin, putPlugin] });
  runs.push(run);
  await run.attach(Workdir, { value: project.workdir });
  await run.attach(LspSupervisor, { value: supervisor });
  const lsp = async (input: Record<string, unknown>) => run.call("lsp", input);
  const status = async (): Promise<string> => resultText(await lsp({ op: "status", file: project.file }));
  /** A hover, with how long it took and the pid of the server that was asked. */
  const hover = async () => {
    const started = Date.now();
    const pending = lsp({ op: "hover", file: project.file, line: 1, symbol: "answer" });
    const pid = await runningPid(supervisor, pending);
    const result = await pending;
    return { result, text: resultText(result), ms: Date.now() - started, pid };
  };
  /** A write through the run, with how long it took (the write observer included). */
  const put = async (files: Record<string, string>) => {
    const started = Date.now();
    const text = resultText(await run.call("put", { files }));
    return { text, ms: Date.now() - started };
  };
  return { ...project, supervisor, run, lsp, status, hover, put };
}

/** The pid of the session the supervisor runs while `pending` is under way (recorded for the process-table check). */
async function runningPid(supervisor: LspSupervisorInstance, pending: Promise<unknown>): Promise<number | undefined> {
  let settled = false;
  void pending.finally(() => (settled = true));
  for (;;) {
    // Read once more after the call settled: a server that starts and answers between two polls is still running then.
    const done = settled;
    // The newest session with a process: one being replaced may still be listed, without a pid.
    const pid = supervisor
      .running()
      .map((session) => session.pid)
      .filter((found): found is number => found !== undefined)
      .at(-1);
    if (pid !== undefined) {
      groups.add(pid);
      return pid;
    }
    if (done) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The helper process the scripted server names on stderr, which a message quotes. */
function helperPid(message: string): number {
  const pid = Number(/helper (\d+)/.exec(message)?.[1]);
  expect(pid, `no helper pid in: ${message}`).toBeGreaterThan(0);
  return pid;
}

async function helperGone(pid: number): Promise<void> {
  await expect
    .poll(async () => (await listProcesses()).filter((row) => row.pid === pid && row.state !== "Z"), { timeout: 5_000 })
    .toEqual([]);
}

const clock = "\\d\\d:\\d\\d:\\d\\d";

describe("unresponsive servers (scripted servers, real child processes)", () => {
  it("a request left unanswered fails at the bound naming server, root, method and bound; the group is killed; it restarts within the budget, then is broken; reload clears it", async () => {
    const { supervisor, lsp, status, hover, put, file } = await setUp("hang-after-initialize", {
      unresponsiveMs: 1_500,
    });
    const first = await hover();
    expect(resultErrorCode(first.result)).toBe("unavailable");
    expect(first.text).toContain(
      "Language server `fake` for `project` is unresponsive: `textDocument/hover` got no answer within 1.5 s",
    );
    expect(first.text).toContain("so it was stopped, its process group killed, and this call has no answer.");
    expect(first.text).toContain(
      "It starts again on the next call (1 of 3 crashes or hangs within 5 minutes; at 3 it is broken)",
    );
    expect(first.text).toContain("deadlocked after initialize");
    // The bound, not the call's 90 s budget, ends the wait.
    expect(first.ms).toBeGreaterThanOrEqual(1_400);
    expect(first.ms).toBeLessThan(10_000);
    expect(supervisor.running()).toEqual([]);
    await expect.poll(() => living(first.pid!), { timeout: 5_000 }).toEqual([]);
    await helperGone(helperPid(first.text));
    expect(await status()).toMatch(
      new RegExp(
        `fake @ project: unresponsive — unresponsive since ${clock}: \`textDocument/hover\` got no answer in 1\\.5 s; its process group was killed and it starts again on the next call \\(1 of 3 crashes or hangs within 5 minutes; at 3 it is broken\\)\\.`,
      ),
    );

    const second = await hover();
    expect(second.pid).toBeDefined();
    expect(second.pid).not.toBe(first.pid);
    expect(second.text).toContain("(2 of 3 crashes or hangs within 5 minutes");
    const third = await hover();
    expect(third.text).toContain(
      "That is 3 crashes or hangs within 5 minutes, so it is now broken and will not be restarted",
    );
    await expect.poll(() => living(third.pid!), { timeout: 5_000 }).toEqual([]);

    const refused = await hover();
    expect(refused.pid).toBeUndefined();
    expect(refused.ms).toBeLessThan(2_000);
    expect(refused.text).toMatch(
      new RegExp(
        `is broken: it did not answer \`textDocument/hover\` within 1\\.5 s \\(unresponsive since ${clock}\\), with 3 crashes or hangs within 5 minutes\\.`,
      ),
    );
    expect(await status()).toContain("fake @ project: broken — it did not answer `textDocument/hover` within 1.5 s");
    // A write does not wait on a broken server either.
    const write = await put({ [file]: "answer = 42\n" });
    expect(write.ms).toBeLessThan(2_000);
    expect(write.text).toContain(
      "project/main.fake: could not be checked — Language server `fake` for `project` is broken",
    );

    const reloaded = resultText(await lsp({ op: "reload", file }));
    expect(reloaded).toMatch(/Restarted `fake` for `project` \(pid \d+\)/);
    groups.add(supervisor.running()[0]!.pid);
    expect(await status()).toContain("fake @ project: running");
  });

  it("a server that never answers `initialize` is unresponsive after startTimeoutMs, counts against the budget, and is broken after 3", async () => {
    const { supervisor, status, hover } = await setUp("hang-on-initialize", { startTimeoutMs: 1_000 });
    const first = await hover();
    expect(resultErrorCode(first.result)).toBe("unavailable");
    expect(first.text).toContain(
      "Language server `fake` for `project` is unresponsive: `initialize` got no answer within 1 s, so it was stopped, its process group killed.",
    );
    expect(first.text).toContain(
      "(1 of 3 crashes or hangs within 5 minutes; at 3 it is broken); raise `startTimeoutMs` (now 1000 ms) if the server is merely slow.",
    );
    expect(first.text).toContain("waiting for a lock that never frees");
    expect(first.ms).toBeLessThan(10_000);
    await helperGone(helperPid(first.text));
    expect(await status()).toMatch(
      new RegExp(`fake @ project: unresponsive — unresponsive since ${clock}: \`initialize\` got no answer in 1 s;`),
    );
    await hover();
    const third = await hover();
    expect(third.text).toContain("so it is now broken and will not be restarted");
    await helperGone(helperPid(third.text));
    const refused = await hover();
    expect(refused.ms).toBeLessThan(2_000);
    expect(refused.text).toContain("is broken: it did not answer `initialize` within 1 s");
    expect(supervisor.running()).toEqual([]);
  });

  it("a server that reports `$/progress` work is not unresponsive while it works: the clock starts again when the work ends", async () => {
    const { status, hover } = await setUp("indexes-then-answers", { unresponsiveMs: 1_000 });
    // The server answers only after 2.5 s of indexing, far past the 1 s bound.
    const answered = await hover();
    expect(answered.text).toContain("function answer(): number");
    expect(answered.ms).toBeGreaterThanOrEqual(2_000);
    expect(await status()).toMatch(/fake @ project: running — pid \d+/);
    const again = await hover();
    expect(again.pid).toBe(answered.pid);
  });

  it("writes after a hang do not wait on it: the hung pull fails at the bound, and later writes to notes.txt and to the covered file answer quickly", async () => {
    // A slow host's write ceiling (10 s, as RUNBOUND_LSP_WRITE_CEILING_MS sets it) longer than the bound, as in the issue.
    const { supervisor, status, put, file } = await setUp("hang-first-diagnostic", {
      unresponsiveMs: 6_000,
      afterWrite: { ceilingMs: 10_000 },
    });
    const pending = put({ [file]: "ERROR: name `b` is not defined\n" });
    const hungPid = await runningPid(supervisor, pending);
    const first = await pending;
    expect(first.text).toContain(
      "project/main.fake: could not be checked — Language server `fake` for `project` is unresponsive: `textDocument/diagnostic` got no answer within 6 s",
    );
    expect(first.text).toContain("stuck in the type checker");
    expect(first.ms).toBeGreaterThanOrEqual(5_500);
    expect(first.ms).toBeLessThan(9_500);
    await expect.poll(() => living(hungPid!), { timeout: 5_000 }).toEqual([]);
    expect(await status()).toContain("fake @ project: unresponsive — unresponsive since");

    // Nothing was left pending for the next write to wait on, and no server covers notes.txt.
    const notes = await put({ "notes.txt": "remember the milk\n" });
    expect(notes.text).toBe("Wrote notes.txt.");
    expect(notes.ms).toBeLessThan(2_000);

    // The covered file starts a fresh server, which answers (the hang was once): the write's usual time.
    const covered = put({ [file]: "ERROR: name `b` is not defined\nWARN: unused `a`\n" });
    const freshPid = await runningPid(supervisor, covered);
    const second = await covered;
    expect(second.text).toContain(
      "project/main.fake: 1 error and 1 warning (the first check of this file in this run, so some may predate this write):",
    );
    expect(second.ms).toBeLessThan(4_000);
    expect(freshPid).not.toBe(hungPid);
    expect(await status()).toMatch(
      new RegExp(
        `fake @ project: running — pid ${freshPid}.*; restarted after it was unresponsive at ${clock} \\(\`textDocument/diagnostic\` got no answer in 6 s; 1 of 3 crashes or hangs within 5 minutes\\)\\.`,
      ),
    );
  });
});
