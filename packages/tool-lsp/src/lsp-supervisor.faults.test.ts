import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { listProcesses } from "@runbound/runtime-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
} from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fakeProject, living, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

function setUp(scenario: string, settings: Omit<LspSupervisorSettings, "servers"> = {}) {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [scriptedServer(scenario)], stopGraceMs: 300, ...settings });
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, project.workdir],
    ],
  });
  const hover = (signal?: AbortSignal) =>
    run.call(
      "lsp",
      { op: "hover", file: project.file, line: 1, symbol: "answer" },
      signal === undefined ? {} : { signal },
    );
  return { ...project, supervisor, run, hover };
}

describe("supervisor against scripted servers (real child processes)", () => {
  it("answers through a healthy server, and dispose leaves no process of its group", async () => {
    const { supervisor, hover } = setUp("normal");
    const result = await hover();
    expect(resultText(result)).toContain("function answer(): number");
    const [session] = supervisor.running();
    expect((await living(session!.pid)).length).toBe(2);
    await supervisor.dispose();
    expect(await living(session!.pid)).toEqual([]);
  });

  it("a crash mid-request fails that call with the exit and stderr, restarts on the next call, and is broken after 3", async () => {
    const { supervisor, run, hover, file } = setUp("crash-on-hover");
    const first = await hover();
    expect(resultErrorCode(first)).toBe("unavailable");
    expect(resultText(first)).toContain("exited with code 3 while answering `textDocument/hover`");
    expect(resultText(first)).toContain("fatal: segmentation fault in hover");
    expect(resultText(first)).toContain("crash 1;");
    const status = resultText(await run.call("lsp", { op: "status", file }));
    expect(status).toContain("crashed(1)");
    await hover();
    const third = await hover();
    expect(resultText(third)).toContain("now broken");
    const refused = await hover();
    expect(resultErrorCode(refused)).toBe("unavailable");
    expect(resultText(refused)).toMatch(/is broken: it exited with code 3, with 3 crashes within 5 minutes/);
    expect(resultText(refused)).toContain("segmentation fault");
    expect(resultText(await run.call("lsp", { op: "status" }))).toContain("fake @ project: broken");
    expect(supervisor.running()).toEqual([]);
    // reload forgets the crashes and starts a fresh process.
    const reloaded = await run.call("lsp", { op: "reload", file });
    expect(resultText(reloaded)).toMatch(/Restarted `fake` for `project` \(pid \d+\)/);
    expect(supervisor.running()).toHaveLength(1);
  });

  it("a crash leaves no helper of the crashed server behind", async () => {
    const { hover } = setUp("crash-on-hover");
    const message = resultText(await hover());
    // The scripted server writes its helper's pid to stderr, which the error quotes.
    const helper = Number(/helper (\d+)/.exec(message)?.[1]);
    expect(helper).toBeGreaterThan(0);
    await expect
      .poll(async () => (await listProcesses()).filter((row) => row.pid === helper && row.state !== "Z"), {
        timeout: 5_000,
      })
      .toEqual([]);
  });

  it("a hung request answers when the call's budget ends; dispose kills a server that ignores SIGTERM and shutdown", async () => {
    const { supervisor, hover } = setUp("hang-on-hover");
    const started = Date.now();
    const result = await hover(AbortSignal.timeout(1_500));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(["timeout", "cancelled"]).toContain(resultErrorCode(result));
    const [session] = supervisor.running();
    expect(session).toBeDefined();
    expect((await living(session!.pid)).length).toBe(2);
    await supervisor.dispose();
    expect(await living(session!.pid)).toEqual([]);
    expect(session!.exit?.reason).toBe("was killed by SIGKILL");
  });

  it("garbage on stdout ends the session with a typed error and kills the process", async () => {
    const { supervisor, hover } = setUp("garbage-on-hover");
    const result = await hover(AbortSignal.timeout(20_000));
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain("sent output that is not JSON-RPC");
    const entries = await supervisor.entries(fakeProject().workdir);
    expect(entries[0]?.state).toBe("crashed");
    expect(supervisor.running()).toEqual([]);
  });

  it("a crash during initialize is reported with the server's stderr and counts as a crash", async () => {
    const { run, hover, file } = setUp("crash-on-initialize");
    const result = await hover();
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain("exited with code 2 while answering `initialize`");
    expect(resultText(result)).toContain("fatal: cannot read project configuration");
    expect(resultText(await run.call("lsp", { op: "status", file }))).toContain("crashed(1)");
  });

  it("while the server indexes, an empty answer says so instead of 'none', status says indexing, and progress is forwarded", async () => {
    const { run, hover, file } = setUp("indexing");
    // The first call starts the server; its progress begins right after initialize.
    await hover();
    await expect
      .poll(async () => resultText(await run.call("lsp", { op: "status", file })), { timeout: 10_000 })
      .toContain("indexing");
    // A call that starts mid-index hears where the index is, whether or not the server reports again.
    const heardBefore = run.progress.length;
    const result = await hover();
    expect(resultText(result)).toContain("still indexing (Indexing: 3/10 files 30%)");
    expect(resultText(result)).toContain("may be incomplete");
    expect(run.progress.slice(heardBefore)).toContainEqual({
      message: "fake: Indexing — 3/10 files",
      progress: 30,
      total: 100,
    });
  });

  it("a cold call waits, within the server's budget, for the project loading it reports after the first file", async () => {
    const project = fakeProject();
    const spec = { ...scriptedServer("loads-on-open"), projectLoading: { beginsWithinMs: 3_000, budgetMs: 20_000 } };
    const supervisor = createLspSupervisor({ servers: [spec], stopGraceMs: 300 });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, project.workdir],
      ],
    });
    const text = resultText(await run.call("lsp", { op: "hover", file: project.file, line: 1, symbol: "answer" }));
    expect(text).toBe(
      "Hover for `answer` at project/main.fake:1:\n```fake\nfunction answer(): number\n```\nThe answer.",
    );
    // Without the setting the same server answers at once, from its syntax-only fallback.
    const eager = setUp("loads-on-open");
    expect(resultText(await eager.hover())).toContain("partial: syntax only");
  });

  it("stops a server that stayed unused for idleMs, and starts it again on the next call", async () => {
    const { supervisor, run, hover, file } = setUp("normal", { idleMs: 200 });
    await hover();
    const [session] = supervisor.running();
    await expect.poll(() => supervisor.running().length, { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => living(session!.pid), { timeout: 10_000 }).toEqual([]);
    expect(resultText(await run.call("lsp", { op: "status", file }))).toContain("stopped after");
    expect(resultText(await hover())).toContain("The answer.");
    expect(supervisor.running()[0]?.pid).not.toBe(session!.pid);
  });

  it("a call that gives up during a cold start does not cancel the start: the server warms for the next call", async () => {
    const { supervisor, hover } = setUp("publishes-slow-start");
    const impatient = await hover(AbortSignal.timeout(300));
    expect(resultErrorCode(impatient)).toBe("timeout");
    expect(resultText(impatient)).toContain(
      "Starting language server `fake` for `project` took longer than this call's budget; it goes on in the background.",
    );
    await expect.poll(() => supervisor.running().length, { timeout: 10_000 }).toBe(1);
    const pid = supervisor.running()[0]!.pid;
    expect(resultText(await hover())).toContain("function answer(): number");
    expect(supervisor.running()[0]!.pid).toBe(pid);
  });

  it("a request answered ContentModified is asked again, up to 3 times, then the error is the answer", async () => {
    const twice = setUp("content-modified-2");
    expect(resultText(await twice.hover())).toContain("function answer(): number");
    expect(
      twice.supervisor
        .running()[0]!
        .stderrTail()
        .filter((line) => line.includes("ContentModified")),
    ).toHaveLength(2);
    const always = setUp("content-modified-9");
    const result = await always.hover();
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain("answered `textDocument/hover` with error -32801: content modified");
    expect(
      always.supervisor
        .running()[0]!
        .stderrTail()
        .filter((line) => line.includes("ContentModified")),
    ).toHaveLength(4);
  });

  it("a symbol that is not on the line is answered without starting a server", async () => {
    const { supervisor, run, file } = setUp("normal");
    const result = await run.call("lsp", { op: "definition", file, line: 1, symbol: "nowhere" });
    expect(resultErrorCode(result)).toBe("not_found");
    expect(resultText(result)).toContain("`symbol` `nowhere` does not occur on line 1");
    expect(supervisor.running()).toEqual([]);
  });

  it("after dispose nothing starts any more", async () => {
    const { supervisor, hover } = setUp("normal");
    await supervisor.dispose();
    const result = await hover();
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toContain("disposed");
  });
});
