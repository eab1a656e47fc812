import { displayPath, resolveInWorkdir, writeFilesAtomically } from "@runbound/runtime-kit";
import { defineTool, definePlugin, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";

/** A minimal writing tool, as a runner's own `write` is: it writes (or, with `content: null`, deletes) files and reports them through `ctx.wrote`. */
export const putTool = defineTool({
  name: "put",
  tier: "write",
  description: "Write files (test helper).",
  input: v.strictObject({ files: v.record(v.string(), v.nullable(v.string())) }),
  requires: [Workdir],
  parallelSafe: false,
  async run(input, context) {
    const workdir = context.resource(Workdir);
    const changes = await Promise.all(
      Object.entries(input.files).map(async ([file, content]) => ({
        path: await resolveInWorkdir(workdir, file),
        content,
      })),
    );
    await writeFilesAtomically(changes, { workdir });
    context.wrote(changes.map((change) => change.path));
    return `Wrote ${changes.map((change) => displayPath(workdir, change.path)).join(", ")}.`;
  },
});

/** A plugin holding {@link putTool}. */
export const putPlugin = definePlugin({ name: "put", version: "0.0.0", tools: [putTool] });
