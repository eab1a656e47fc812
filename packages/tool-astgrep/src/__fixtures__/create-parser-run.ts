import { Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { afterEach } from "vitest";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserSettings } from "../index.js";
import { createTempWorkspace, type TempWorkspace } from "./temp-workspace.js";

/** A fake run of the plugin with a fresh parser resource over `workdir`. */
export function createParserRun(workdir: string, settings: AstGrepParserSettings = {}): FakeRun {
  return createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, createAstGrepParser(settings)],
      [Workdir, workdir],
    ],
  });
}

/**
 * Parser runs over fresh temporary workspaces, each removed after its test: `runIn(files)` makes one,
 * `workspace()` is the latest (to write or read its files).
 */
export function parserRunsInTempWorkspaces(): { runIn(files: Record<string, string>): Promise<FakeRun>; workspace(): TempWorkspace } {
  let current: TempWorkspace | undefined;
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return {
    async runIn(files) {
      current = await createTempWorkspace(files);
      return createParserRun(current.dir);
    },
    workspace() {
      if (current === undefined) throw new Error("runIn has not made a workspace in this test");
      return current;
    },
  };
}
