import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { afterAll, beforeAll } from "vitest";
import {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
} from "../lsp-supervisor.js";
import { lspPlugin } from "../plugin.js";
import { copyFixture } from "./real-servers.js";

/** What a real-server suite reads once its `beforeAll` ran. */
export interface RealServerRun {
  readonly workdir: string;
  readonly supervisor: LspSupervisorInstance;
  readonly run: FakeRun;
  /** Call `lsp` and answer its text. */
  call(input: Record<string, unknown>): Promise<string>;
}

/**
 * Inside a `describe`: a fresh copy of the fixture `name`, a supervisor (by default: programs from
 * PATH) and a run of the lsp plugin, made before the suite and disposed after it.
 */
export function useRealServerRun(name: string, settings: () => LspSupervisorSettings = () => ({})): RealServerRun {
  const state: { workdir?: string; supervisor?: LspSupervisorInstance; run?: FakeRun } = {};
  beforeAll(() => {
    state.workdir = copyFixture(name);
    state.supervisor = createLspSupervisor(settings());
    state.run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, state.supervisor],
        [Workdir, state.workdir],
      ],
    });
  });
  afterAll(async () => {
    await state.supervisor?.dispose();
  });
  return {
    get workdir() {
      return state.workdir!;
    },
    get supervisor() {
      return state.supervisor!;
    },
    get run() {
      return state.run!;
    },
    call: async (input) => resultText(await state.run!.call("lsp", input)),
  };
}
