import type { CliArguments } from "../cli-arguments.js";
import { writeLine, type CliIo } from "../cli-io.js";
import { openRun } from "../open-run.js";
import { unattachedResourceHint } from "../unattached-resource-hints.js";
import { UsageError } from "../usage-error.js";

/** `runbound status`: every known tool, registered or not and why, and each resource's availability. */
export async function statusCommand(args: CliArguments, io: CliIo): Promise<number> {
  const format = args.format ?? "text";
  if (format !== "text" && format !== "json")
    throw new UsageError(`Unknown format \`${format}\` for status. Use --format text or --format json.`);
  const { run, workdir, plugins, providerFailures, placements } = await openRun(args);
  try {
    const tools = run.toolStatus(args.caller).map(({ tool, plugin, registered, hidden }) => ({
      name: tool.name,
      tier: tool.tier,
      plugin,
      registered,
      reason:
        hidden === undefined
          ? undefined
          : hidden.kind === "tier"
            ? `tier \`${tool.tier}\` is above caller \`${args.caller.name}\`'s ceiling \`${hidden.ceiling}\``
            : `missing resource ${hidden.missing.map((key) => `\`${key.id}\``).join(", ")}`,
    }));
    const resourceKeys = new Map(
      plugins.flatMap((plugin) => plugin.tools.flatMap((tool) => [...tool.requires])).map((key) => [key.id, key]),
    );
    const resources = await Promise.all(
      [...resourceKeys.values()].map(async (key) => {
        const failure = providerFailures.get(key.id);
        const attached = run.isAttached(key);
        return {
          id: key.id,
          attached,
          detail: failure ?? (attached ? await run.describeResource(key) : unattachedResourceHint(key.id)),
        };
      }),
    );
    if (format === "json") {
      await writeLine(
        io.stdout,
        JSON.stringify({ workdir, caller: args.caller, tools, resources, placements }, null, 2),
      );
      return 0;
    }
    const lines = [`workdir: ${workdir}`, `caller: ${args.caller.name} (ceiling ${args.caller.ceiling})`, "", "tools:"];
    for (const tool of tools)
      lines.push(
        `  ${tool.registered ? "✓" : "✗"} ${tool.name.padEnd(14)} ${tool.tier.padEnd(5)} ${tool.plugin}${tool.reason === undefined ? "" : ` — ${tool.reason}`}`,
      );
    lines.push("", "resources:");
    for (const resource of resources) {
      lines.push(
        `  ${resource.attached ? "✓" : "✗"} ${resource.id}${resource.detail === undefined ? "" : `: ${resource.detail.replace(/\n/g, "\n      ")}`}`,
      );
    }
    lines.push("", "placement:");
    for (const placement of placements) lines.push(`  ${placement.programs}: ${placement.where}`);
    await writeLine(io.stdout, lines.join("\n"));
    return 0;
  } finally {
    await run.close();
  }
}
