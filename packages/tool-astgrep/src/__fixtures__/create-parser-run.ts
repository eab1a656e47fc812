import { Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserSettings } from "../index.js";

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
