// A minimal write tool for the diagnostics-after-write measurement: it writes through tool-kit's
// atomic writer and reports the file with `context.wrote`, as the CLI's write/edit tools do, so the
// run hands the path to every write observer (tool-lsp's diagnostics on write, once it exists).
import { displayPath, resolveInWorkdir, writeFilesAtomically } from "@runbound/runtime-kit";
import { definePlugin, defineTool, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";

const benchWriteTool = defineTool({
  name: "bench_write",
  tier: "write",
  description: "Overwrite one file of the benchmark's fixture with `content` (benchmark only).",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("The file, relative to the working directory.")),
    content: v.pipe(v.string(), v.description("The complete new content.")),
  }),
  requires: [Workdir],
  parallelSafe: false,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const path = await resolveInWorkdir(workdir, input.path);
    await writeFilesAtomically([{ path, content: input.content, label: displayPath(workdir, path) }], { workdir });
    context.wrote([path]);
    return `Wrote \`${displayPath(workdir, path)}\`.`;
  },
});

/** The plugin holding `bench_write`. */
export const benchWritePlugin = definePlugin({
  name: "runbound-bench-lsp-write",
  version: "0.0.0",
  tools: [benchWriteTool],
});
