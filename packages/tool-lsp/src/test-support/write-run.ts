import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { createRun, type Run } from "@runbound/runner-adapter";
import { resultText, Workdir } from "@runbound/tool-kit";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
} from "../lsp-supervisor.js";
import { lspPlugin } from "../plugin.js";
import { putPlugin } from "./put-tool.js";
import { copyFixture, devBinary } from "./real-servers.js";

/** What a suite of writes against real servers reads once its `beforeAll` ran. */
export interface WriteRun {
  readonly workdir: string;
  readonly supervisor: LspSupervisorInstance;
  /** Write files through the run (`put`), so the diagnostics-on-write observer answers; the result's text. */
  put(file: string, content: string): Promise<string>;
  /** Call `lsp` and answer its text. */
  lsp(input: Record<string, unknown>): Promise<string>;
  /** Call any tool of the run (`lsp_rename`, …) and answer its whole result. */
  call(tool: string, input: Record<string, unknown>): ReturnType<Run["call"]>;
  /** A file of the workdir as it is on disk. */
  readText(file: string): Promise<string>;
}

/**
 * Inside a `describe`: a fresh copy of the fixture `name` (with what `prepare` adds to it), a supervisor with the npm devDependencies'
 * servers first on its PATH (and the settings `more` gives for the workdir), and a real run of the lsp plugin plus a writer. Correctness, not speed, is
 * under test (bench/lsp measures speed), so a loaded machine gets 10 s per check. After the suite every
 * server's process group is checked gone.
 */
export function useWriteRun(
  name: string,
  more: (workdir: string) => LspSupervisorSettings = () => ({}),
  prepare: (workdir: string) => void = () => undefined,
): WriteRun {
  const state: { workdir?: string; supervisor?: LspSupervisorInstance; run?: Run } = {};
  beforeAll(async () => {
    state.workdir = copyFixture(name);
    prepare(state.workdir);
    const bin = dirname(devBinary("typescript-language-server")!);
    state.supervisor = createLspSupervisor({
      pathVariable: `${bin}:${process.env["PATH"] ?? ""}`,
      afterWrite: { ceilingMs: 10_000 },
      ...more(state.workdir),
    });
    state.run = createRun({ plugins: [lspPlugin, putPlugin], observerTimeoutMs: 60_000 });
    await state.run.attach(Workdir, { value: state.workdir });
    await state.run.attach(LspSupervisor, { value: state.supervisor });
  });
  afterAll(async () => {
    const groups = state.supervisor?.running().map((session) => session.pid) ?? [];
    await state.run?.close();
    await state.supervisor?.dispose();
    for (const pgid of groups) expect((await listProcessGroup(pgid)).filter((row) => row.state !== "Z")).toEqual([]);
  });
  return {
    get workdir() {
      return state.workdir!;
    },
    get supervisor() {
      return state.supervisor!;
    },
    put: async (file, content) => resultText(await state.run!.call("put", { files: { [file]: content } })),
    lsp: async (input) => resultText(await state.run!.call("lsp", input)),
    call: (tool, input) => state.run!.call(tool, input),
    readText: (file) => readFile(join(state.workdir!, file), "utf8"),
  };
}
