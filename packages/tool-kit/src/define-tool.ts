import type { GenericSchema, InferOutput } from "valibot";
import type { ToolOutput, ToolResult } from "./content.js";
import type { AnyResourceKey, ResourceValue } from "./resource.js";
import { SPECIFICATION_VERSION, type SpecificationVersion } from "./specification-version.js";
import { isTier, type Tier } from "./tier.js";
import { ToolError } from "./tool-error.js";

/** Who is calling: the main agent, a plan-mode agent, a read-only subagent… */
export interface CallerInfo {
  /** A name for messages, e.g. `main` or `plan`. */
  name: string;
  /** The most capable tier this caller may see and call. */
  ceiling: Tier;
}

/** Facts about the run a call belongs to. */
export interface RunInfo {
  /** Unique per run. */
  id: string;
  /** The caller of this call. */
  caller: CallerInfo;
}

/** A progress notice from a long call. */
export interface ProgressUpdate {
  /** One line for a human. */
  message: string;
  /** Work done so far, in the unit of `total`. */
  progress?: number;
  /** Total work, when known. */
  total?: number;
}

/** What a tool's `run` receives besides its input. */
export interface ToolContext<K extends AnyResourceKey = never> {
  /** The value attached under one of the keys the tool declared in `requires`. */
  resource<R extends K>(key: R): ResourceValue<R>;
  /**
   * Aborted when the call times out, the caller cancels, or the run ends (its client gone included);
   * `signal.reason` is the `timeout`/`cancelled` ToolError the caller gets. The caller is answered at
   * once; the tool must then stop and release what it holds, because the host waits only a short
   * grace (5 s, or 250 ms when the client is gone) before disposing the call's resources. Only work
   * that lets it can be stopped: CPU-bound work yields to the event loop at least every ~50 ms (e.g.
   * `await setImmediate()` between files or batches) and checks `signal.aborted` there, or runs off
   * the main thread; a long native call is split into bounded batches.
   */
  signal: AbortSignal;
  /** The run and the caller. */
  run: RunInfo;
  /** Call another tool of the run with the same caller, guards and approvals as a model call. */
  callTool(name: string, input: unknown): Promise<ToolResult>;
  /** Tell the host which files this call changed (absolute paths), so write observers run. */
  wrote(paths: readonly string[]): void;
  /** Report progress of a long call. */
  progress(update: ProgressUpdate): void;
}

/**
 * What a tool claims about its effects beyond its tier, for clients that show or gate tools (MCP
 * tool annotations). Hints, not guarantees: the tier still decides who sees the tool.
 */
export interface ToolHints {
  /**
   * `false` for a `read` tool whose calls start work that has effects of its own, e.g. a worker that
   * goes on with its caller's tools: the tier says who may call it (a plan caller may delegate), this
   * says what a call can lead to. Only the tier makes a tool read-only, so `true` is refused.
   */
  readOnly?: false;
  /**
   * Whether a call may destroy or overwrite something (`write` and `exec` tools, and `read` tools that
   * are not read-only: default true; ignored for read-only tools, which change nothing). False for a tool that only adds or stages, e.g. one that
   * proposes an edit and writes nothing until another tool accepts it.
   */
  destructive?: boolean;
  /** True when repeating a call with the same input has no further effect. Claimed only when declared. */
  idempotent?: boolean;
  /**
   * Whether a call may reach beyond the run's workdir and resources (the network, any file, any
   * process); default true for `exec` tools (a process can reach anything), false otherwise.
   */
  openWorld?: boolean;
}

const hintNames: readonly (keyof ToolHints)[] = ["readOnly", "destructive", "idempotent", "openWorld"];

/** What a plugin author writes; {@link defineTool} checks it and returns a {@link Tool}. */
export interface ToolDefinition<S extends GenericSchema, K extends AnyResourceKey> {
  /** Model-facing name: lowercase letters, digits and `_`, starting with a letter, at most 64 characters. */
  name: string;
  /** What the tool may do; decides which callers see it. */
  tier: Tier;
  /** Model-facing description: what it does, its defaults and limits. */
  description: string;
  /** The input schema: a valibot `strictObject`, so unknown fields are rejected. */
  input: S;
  /** The resources the tool needs; the tool is registered only while all are attached. */
  requires: readonly K[];
  /** False when two calls in one run must not overlap (the host serializes them). */
  parallelSafe: boolean;
  /**
   * The longest a call may take, in milliseconds; omit for the host's default (120 000 in the runbound
   * runner). When it passes, the caller is answered `timeout` and `ctx.signal` aborts; it holds only
   * for work that yields or runs off the main thread (see {@link ToolContext.signal}).
   */
  timeoutMs?: number;
  /** A short name for people, e.g. `Structural search`; default: the name with spaces for `_`, capitalised. */
  title?: string;
  /**
   * The schema of `structured` in a successful result: a valibot object schema (`v.object`,
   * `v.strictObject` or `v.looseObject`) without transforms, so it can be published as JSON Schema.
   * When given, a host publishes it (MCP `outputSchema`) and checks every successful result's
   * `structured` against it; one that does not match is a bug in the tool and is answered as an
   * `internal` error. Declare it only when `structured` is complete on its own: some MCP clients show
   * the model `structuredContent` instead of the text.
   */
  output?: GenericSchema;
  /** Claims about the tool's effects beyond its tier; see {@link ToolHints}. */
  hints?: ToolHints;
  /** Do the work. Throw a {@link ToolError} for an expected failure. */
  run(input: InferOutput<S>, context: ToolContext<K>): Promise<ToolOutput>;
}

/** A checked tool, ready for a plugin. */
export interface Tool<
  S extends GenericSchema = GenericSchema,
  K extends AnyResourceKey = AnyResourceKey,
> extends ToolDefinition<S, K> {
  /** Contract version. */
  readonly specificationVersion: SpecificationVersion;
}

/** Any tool, whatever its schema and resources (for hosts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;

const toolNamePattern = /^[a-z][a-z0-9_]{0,63}$/;

function invalidDefinition(name: unknown, problem: string): ToolError {
  return new ToolError({ code: "invalid_plugin", message: `Tool \`${String(name)}\` is not valid: ${problem}` });
}

function describeHintsProblem(hints: unknown): string | undefined {
  if (hints === undefined) return undefined;
  if (typeof hints !== "object" || hints === null || Array.isArray(hints))
    return `\`hints\` is ${Array.isArray(hints) ? "an array" : `\`${String(hints)}\``}; give an object such as \`{ destructive: false }\` or omit it.`;
  for (const [key, value] of Object.entries(hints)) {
    if (!(hintNames as readonly string[]).includes(key)) {
      return `hint \`${key}\` is unknown; the hints are ${hintNames.map((name) => `\`${name}\``).join(", ")}.`;
    }
    if (key === "readOnly" && value === true)
      return "hint `readOnly` is `true`: only the tier makes a tool read-only (`read`); give `false` for a read tool whose calls start work with effects, or leave it out.";
    if (value !== undefined && typeof value !== "boolean")
      return `hint \`${key}\` is \`${String(value)}\`; give true or false or leave it out.`;
  }
  return undefined;
}

/** Check the parts of a tool definition that TypeScript cannot, so a broken plugin fails at load, not mid-run. */
export function assertValidTool(tool: AnyTool): void {
  if (typeof tool.name !== "string" || !toolNamePattern.test(tool.name)) {
    throw invalidDefinition(tool.name, "the name must match /^[a-z][a-z0-9_]{0,63}$/ (for example `ast_grep`).");
  }
  if (!isTier(tool.tier)) {
    throw invalidDefinition(
      tool.name,
      `tier \`${String(tool.tier)}\` is unknown; use \`read\`, \`write\` or \`exec\`.`,
    );
  }
  if (typeof tool.description !== "string" || tool.description.trim().length === 0) {
    throw invalidDefinition(tool.name, "the description is empty; tell the model what the tool does.");
  }
  const inputType = (tool.input as { type?: unknown } | undefined)?.type;
  if (inputType !== "strict_object") {
    throw invalidDefinition(
      tool.name,
      `the input schema is \`${String(inputType)}\`; use \`v.strictObject({...})\` so unknown fields are rejected.`,
    );
  }
  if (!Array.isArray(tool.requires) || tool.requires.some((key) => typeof key?.id !== "string")) {
    throw invalidDefinition(tool.name, "`requires` must be an array of keys made with `defineResource`.");
  }
  if (typeof tool.parallelSafe !== "boolean") {
    throw invalidDefinition(tool.name, "`parallelSafe` must be true or false.");
  }
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === "number" && tool.timeoutMs > 0)) {
    throw invalidDefinition(
      tool.name,
      `\`timeoutMs\` is \`${String(tool.timeoutMs)}\`; give a positive number of milliseconds or omit it.`,
    );
  }
  if (tool.title !== undefined && !(typeof tool.title === "string" && tool.title.trim().length > 0)) {
    throw invalidDefinition(
      tool.name,
      `\`title\` is \`${String(tool.title)}\`; give a short name for people (for example \`Structural search\`) or omit it.`,
    );
  }
  const outputType = (tool.output as { type?: unknown } | undefined)?.type;
  if (
    tool.output !== undefined &&
    !(outputType === "object" || outputType === "strict_object" || outputType === "loose_object")
  ) {
    throw invalidDefinition(
      tool.name,
      `the output schema is \`${String(outputType)}\`; structured results are JSON objects, so use \`v.object({...})\` or omit \`output\`.`,
    );
  }
  const hintsProblem = describeHintsProblem(tool.hints);
  if (hintsProblem !== undefined) throw invalidDefinition(tool.name, hintsProblem);
  if (typeof tool.run !== "function") {
    throw invalidDefinition(tool.name, "`run` must be a function.");
  }
}

/**
 * Declare a tool. The input type of `run` and the resources `ctx.resource` accepts are inferred from
 * `input` and `requires`.
 */
export function defineTool<S extends GenericSchema, const K extends AnyResourceKey = never>(
  definition: ToolDefinition<S, K>,
): Tool<S, K> {
  const tool: Tool<S, K> = Object.freeze({ ...definition, specificationVersion: SPECIFICATION_VERSION });
  assertValidTool(tool);
  return tool;
}
