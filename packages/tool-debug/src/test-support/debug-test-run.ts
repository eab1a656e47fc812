import { ConversationId, resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { afterEach } from "vitest";
import {
  createDebugSupervisor,
  DebugSupervisor,
  type DebugSupervisorInstance,
  type DebugSupervisorSettings,
} from "../debug-supervisor.js";
import { debugPlugin } from "../plugin.js";
import { copyFixture } from "./real-adapters.js";

/** A run with the debug plugin on a fresh copy of a fixture, as a suite's tests use it. */
export interface DebugTestRun {
  run: FakeRun;
  supervisor: DebugSupervisorInstance;
  workdir: string;
  /** Call `debug` and read the answer. */
  call(input: Record<string, unknown>): Promise<{
    text: string;
    structured: Record<string, unknown> | undefined;
    isError: boolean;
    code: string | undefined;
  }>;
}

/**
 * The set-up of a suite: `start(settings)` copies the fixture (then `prepare` builds in it), or takes
 * the workdir `fixture()` gives (a fixture built in place once), creates a supervisor and a run for
 * conversation `conversation-1`; every supervisor is disposed after each test.
 */
export function debugTestRuns(
  fixture: string | (() => string),
  prepare: (workdir: string) => void = () => undefined,
): (settings?: DebugSupervisorSettings) => DebugTestRun {
  let supervisors: DebugSupervisorInstance[] = [];
  afterEach(async () => {
    await Promise.all(supervisors.map((supervisor) => supervisor.dispose()));
    supervisors = [];
  });
  return (settings = {}) => {
    const workdir = typeof fixture === "string" ? copyFixture(fixture) : fixture();
    prepare(workdir);
    const supervisor = createDebugSupervisor(settings);
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [debugPlugin],
      resources: [
        [DebugSupervisor, supervisor],
        [Workdir, workdir],
        [ConversationId, "conversation-1"],
      ],
    });
    return {
      run,
      supervisor,
      workdir,
      async call(input) {
        const result = await run.call("debug", input);
        return {
          text: resultText(result),
          structured: result.structured,
          isError: result.isError === true,
          code: resultErrorCode(result),
        };
      },
    };
  };
}
