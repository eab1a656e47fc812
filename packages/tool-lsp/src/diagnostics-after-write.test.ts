import { createRun, type Run } from "@runbound/runner-adapter";
import { resultText, Workdir } from "@runbound/tool-kit";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diagnosticsAfterWrite } from "./diagnostics-after-write.js";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { putPlugin } from "./test-support/put-tool.js";
import { fakeProject, living, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
const runs: Run[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.close()));
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

async function setUp(scenario = "publishes") {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [scriptedServer(scenario)], stopGraceMs: 300 });
  supervisors.push(supervisor);
  const run = createRun({ plugins: [lspPlugin, putPlugin] });
  runs.push(run);
  await run.attach(Workdir, { value: project.workdir });
  await run.attach(LspSupervisor, { value: supervisor });
  const put = async (files: Record<string, string | null>): Promise<string> =>
    resultText(await run.call("put", { files }));
  return { ...project, supervisor, run, put };
}

const file = "project/main.fake";

describe("diagnostics on write (scripted server, real child process, through a run)", () => {
  it("reports what a write introduced, not what only moved; a second real occurrence is new; a fix is reported resolved", async () => {
    const { put } = await setUp();
    const first = await put({ [file]: "a = 1\nERROR: name `b` is not defined\n" });
    expect(first).toContain("Wrote project/main.fake.");
    expect(first).toContain(
      "project/main.fake: 1 error (the first check of this file in this run, so some may predate this write):",
    );
    expect(first).toContain("  project/main.fake:2: error fake E1: name `b` is not defined");

    const moved = await put({ [file]: "# a comment\n\na = 1\nERROR: name `b` is not defined\n" });
    expect(moved).toContain("project/main.fake: no new errors or warnings.");
    expect(moved).not.toContain("name `b` is not defined");

    const twice = await put({
      [file]: "a = 1\nERROR: name `b` is not defined\nWARN: unused `a`\nERROR: name `b` is not defined\nHINT: style\n",
    });
    expect(twice).toContain("project/main.fake: 2 errors and 1 warning introduced by this write so far:");
    expect(twice).toContain("project/main.fake:2: error fake E1: name `b` is not defined (now 2, was 1)");
    expect(twice).toContain("project/main.fake:3: warning fake E1: unused `a`");
    expect(twice).not.toContain("style");

    const fixed = await put({ [file]: "a = 1\nb = 2\nprint(a + b)\n" });
    expect(fixed).toContain("project/main.fake: resolved 3 diagnostics:");
    expect(fixed).toContain("  error fake E1: name `b` is not defined (×2)");
    expect(fixed).toContain("  warning fake E1: unused `a`");
    expect(fixed).not.toContain("introduced");
  });

  it("what `lsp` `diagnostics` showed is the baseline: an unrelated edit after it reports nothing old", async () => {
    const { run, put, workdir } = await setUp();
    writeFileSync(join(workdir, file), "ERROR: old problem\nx = 1\n");
    expect(resultText(await run.call("lsp", { op: "diagnostics", file }))).toContain(
      "1 error, 0 warnings in project/main.fake",
    );
    const after = await put({ [file]: "ERROR: old problem\nx = 2\n" });
    expect(after).toContain("project/main.fake: no new errors or warnings.");
  });

  it("sends didSave to a server that asks for it, and didChangeWatchedFiles for written files it has not open", async () => {
    const { supervisor, put } = await setUp();
    await put({ [file]: "x = 1\n" });
    const answer = await put({ "project/fake.json": '{"strict": true}\n' });
    // No server covers .json files, so nothing is appended; the server watching the root is told.
    expect(answer).toBe("Wrote project/fake.json.");
    const [session] = supervisor.running();
    await expect.poll(() => session!.stderrTail().join("\n")).toMatch(/watched 2 file:\/\/.*\/project\/fake\.json/);
    expect(session!.stderrTail().join("\n")).toMatch(/saved file:\/\/.*\/project\/main\.fake/);
  });

  it("a deleted file is closed and told as deleted, and its diagnostics are forgotten, not reported resolved", async () => {
    const { supervisor, put } = await setUp();
    await put({ [file]: "ERROR: broken\n", "project/other.fake": "y = 1\n" });
    const answer = await put({ [file]: null });
    expect(answer).toBe("Wrote project/main.fake.");
    const [session] = supervisor.running();
    await expect.poll(() => session!.stderrTail().join("\n")).toMatch(/closed file:\/\/.*\/project\/main\.fake/);
    expect(session!.stderrTail().join("\n")).toMatch(/watched 3 file:\/\/.*\/project\/main\.fake/);
    // Written again, the file is a first check: the ledger dropped it with the deletion.
    expect(await put({ [file]: "ERROR: broken\n" })).toContain("(the first check of this file in this run");
  });

  it("a server that is not ready within the budget leaves the file pending; the next write reports it", async () => {
    const { supervisor, workdir } = await setUp("publishes-slow-start");
    const path = join(workdir, file);
    writeFileSync(path, "ERROR: late\n");
    const progress: string[] = [];
    const budget = { coldWaitMs: 300, ceilingMs: 2_500 };
    const first = await diagnosticsAfterWrite(
      supervisor,
      workdir,
      [path],
      AbortSignal.timeout(20_000),
      (update) => progress.push(update.message),
      budget,
    );
    expect(first?.[0]?.type === "text" && first[0].text).toContain(
      "project/main.fake: not checked yet — `fake` for `project` is still starting; its diagnostics come with the next write's answer",
    );
    expect(progress).toContain("lsp: starting fake for project to check project/main.fake");
    // The start went on in the background although the check gave up waiting.
    await expect.poll(() => supervisor.running().length, { timeout: 10_000 }).toBe(1);
    const other = join(workdir, "project", "other.fake");
    writeFileSync(other, "z = 1\n");
    const second = await diagnosticsAfterWrite(
      supervisor,
      workdir,
      [other],
      AbortSignal.timeout(20_000),
      () => undefined,
      budget,
    );
    const text = second?.[0]?.type === "text" ? second[0].text : "";
    expect(text).toContain("project/other.fake: no new errors or warnings.");
    expect(text).toContain("project/main.fake: 1 error (the first check");
    expect(supervisor.ledger.pending()).toEqual([]);
  });

  it("collapses a flood to a summary and the first rows, and caps the files checked per write", async () => {
    const { put } = await setUp();
    const flood = Array.from({ length: 60 }, (_, index) => `ERROR: problem ${index}`).join("\n");
    const files: Record<string, string> = { [file]: flood };
    for (let index = 0; index < 12; index += 1) files[`project/f${index}.fake`] = "x = 1\n";
    const answer = await put(files);
    expect(answer).toContain(
      "project/main.fake: 60 errors (the first check of this file in this run, so some may predate this write) — this many usually means one root cause",
    );
    expect(answer).toContain("project/main.fake:3: error fake E1: problem 2");
    expect(answer).not.toContain("problem 3\n");
    expect(answer).toMatch(
      /3 more written files were not checked \(at most 10 per write\), e\.g\. `project\/f\d+\.fake`/,
    );
    expect(Buffer.byteLength(answer)).toBeLessThan(16 * 1024);
  });

  it("a server that crashes while checking: the write still succeeds and says why the file was not checked", async () => {
    const { supervisor, put } = await setUp();
    await put({ [file]: "x = 1\n" });
    const [session] = supervisor.running();
    const answer = await put({ [file]: "CRASH\n" });
    expect(answer).toContain("Wrote project/main.fake.");
    expect(answer).toMatch(
      /project\/main\.fake: could not be checked — Language server `fake` for `project` exited with code 4 while answering `textDocument\/publishDiagnostics`.*fatal: crashed while checking/,
    );
    await expect.poll(() => living(session!.pid), { timeout: 10_000 }).toEqual([]);
  });
});
