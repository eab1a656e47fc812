import { toToolResult, type ToolResult } from "../content.js";
import type { AnyTool, CallerInfo, ProgressUpdate, ToolContext } from "../define-tool.js";
import type { Plugin } from "../define-plugin.js";
import { errorResult } from "../error-result.js";
import { whyToolHidden } from "../is-tool-visible.js";
import { parseToolInput } from "../parse-tool-input.js";
import type { AnyResourceKey, ResourceKey } from "../resource.js";
import { ToolError } from "../tool-error.js";

/** Settings of {@link createFakeRun}. */
export interface FakeRunSettings {
  /** Plugins whose tools the run offers. */
  plugins?: readonly Plugin[];
  /** Loose tools the run offers. */
  tools?: readonly AnyTool[];
  /** Resources attached from the start, as `[key, value]` pairs. */
  resources?: ReadonlyArray<readonly [AnyResourceKey, unknown]>;
  /** The caller; default `{ name: "main", ceiling: "exec" }`. */
  caller?: CallerInfo;
}

/** A run without a host, for testing a plugin: it validates, checks resources and tiers, and records writes. */
export interface FakeRun {
  /** Call a tool as the model would; never throws. */
  call(name: string, input: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult>;
  /** Attach (or replace) a resource. */
  attach<T>(key: ResourceKey<T>, value: T): void;
  /** Detach a resource. */
  detach(key: AnyResourceKey): void;
  /** Every path reported through `ctx.wrote`, in order. */
  readonly written: string[];
  /** Every progress update, in order. */
  readonly progress: ProgressUpdate[];
}

/**
 * A minimal run for plugin tests. It follows the host's rules that a tool can observe (strict input
 * validation, required resources, the caller's tier ceiling, errors as results) but has no approvals,
 * timeouts or observers; test those against `@runbound/runner-adapter`.
 */
export function createFakeRun(settings: FakeRunSettings = {}): FakeRun {
  const tools = new Map<string, AnyTool>();
  for (const tool of [...(settings.plugins ?? []).flatMap((plugin) => plugin.tools), ...(settings.tools ?? [])]) {
    tools.set(tool.name, tool);
  }
  const resources = new Map<string, unknown>((settings.resources ?? []).map(([key, value]) => [key.id, value]));
  const caller = settings.caller ?? { name: "main", ceiling: "exec" };
  const written: string[] = [];
  const progress: ProgressUpdate[] = [];

  async function invoke(tool: AnyTool, input: unknown, signal: AbortSignal): Promise<ToolResult> {
    // The host's one visibility rule, so a plugin's tests see what a real run would show.
    const hidden = whyToolHidden(tool, caller, new Set(resources.keys()));
    if (hidden?.kind === "tier") {
      throw new ToolError({
        code: "unknown_tool",
        message: `Tool \`${tool.name}\` is not available to caller \`${caller.name}\`.`,
      });
    }
    if (hidden?.kind === "resources") {
      throw new ToolError({
        code: "unavailable",
        message: `Tool \`${tool.name}\` needs resource ${hidden.missing.map((key) => `\`${key.id}\``).join(", ")}, which is not attached to this run. Attach it first.`,
      });
    }
    const parsed = parseToolInput(tool, input);
    const context: ToolContext<AnyResourceKey> = {
      resource: (key) => {
        if (!tool.requires.some((required: AnyResourceKey) => required.id === key.id)) {
          throw new ToolError({
            code: "internal",
            message: `Tool \`${tool.name}\` asked for resource \`${key.id}\` without declaring it in \`requires\`.`,
          });
        }
        return resources.get(key.id) as never;
      },
      signal,
      run: { id: "fake-run", caller },
      callTool: (name, nested) => run.call(name, nested, { signal }),
      wrote: (paths) => void written.push(...paths),
      progress: (update) => void progress.push(update),
    };
    return toToolResult(await tool.run(parsed, context));
  }

  const run: FakeRun = {
    async call(name, input, options = {}) {
      const tool = tools.get(name);
      try {
        if (tool === undefined) {
          throw new ToolError({
            code: "unknown_tool",
            message: `Unknown tool \`${name}\`. Known tools: ${[...tools.keys()].join(", ")}.`,
          });
        }
        return await invoke(tool, input, options.signal ?? new AbortController().signal);
      } catch (error) {
        return errorResult(error, name);
      }
    },
    attach: (key, value) => void resources.set(key.id, value),
    detach: (key) => void resources.delete(key.id),
    written,
    progress,
  };
  return run;
}
