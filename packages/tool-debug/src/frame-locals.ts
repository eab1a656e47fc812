import type { DebugProtocol } from "@vscode/debugprotocol";
import { cutText } from "@runbound/runtime-kit";
import type { DebugSession } from "./debug-session.js";

/** One local as an answer shows it, with a pointer's struct fields one level down. */
export interface LocalView {
  name: string;
  value: string;
  type?: string;
  /** A reference for op `variables` (0: nothing below). */
  reference: number;
  /** Characters cut from the value. */
  value_cut?: number;
  /** The fields of the struct a pointer points to (Go `*T`, C `struct t *`), one level. */
  fields?: LocalView[];
  /** Fields of the pointee not shown. */
  fields_omitted?: number;
}

/** A frame's locals, bounded. */
export interface FrameLocals {
  /** The scopes read (e.g. `Locals`, `Arguments`). */
  scopes: string[];
  locals: LocalView[];
  /** Every local in those scopes. */
  total: number;
  /** Locals not shown (over the cap). */
  omitted: number;
}

/** Caps of a frame's locals. */
export interface LocalsLimits {
  /** Locals shown. */
  count: number;
  /** Characters of each value. */
  valueCharacters: number;
  /** Pointers expanded to their fields. */
  pointers: number;
  /** Fields shown per pointer. */
  fields: number;
}

/** In a stop answer: the first 20 locals, values ≤ 200 characters, three pointers expanded to 10 fields each (issue 26 item 4). */
export const STOP_LOCALS: LocalsLimits = { count: 20, valueCharacters: 200, pointers: 3, fields: 10 };

// Scopes that hold a frame's own variables, by the names the adapters give them: debugpy and lldb
// `Locals` (lldb also `Arguments` in newer lldb-dap), dlv `Locals` (its arguments included).
const OWN_SCOPE = /local|argument|param/i;

// Names and types are cut too: a C++ or Rust generic type can run to kilobytes.
const NAME_CHARACTERS = 80;
const TYPE_CHARACTERS = 80;

function view(variable: DebugProtocol.Variable, valueCharacters: number): LocalView {
  const value = cutText(variable.value, valueCharacters);
  return {
    name: cutText(variable.name, NAME_CHARACTERS).text,
    value: value.text,
    ...(variable.type === undefined || variable.type.length === 0
      ? {}
      : { type: cutText(variable.type, TYPE_CHARACTERS).text }),
    reference: variable.variablesReference,
    ...(value.cut > 0 ? { value_cut: value.cut } : {}),
  };
}

// A pointer's type as Go (`*main.Config`) and C (`struct config *`) adapters write it.
function isPointer(variable: DebugProtocol.Variable): boolean {
  const type = variable.type ?? "";
  return variable.variablesReference > 0 && (type.startsWith("*") || /\*\s*$/.test(type));
}

async function pointee(
  session: DebugSession,
  variable: DebugProtocol.Variable,
  limits: LocalsLimits,
): Promise<{ fields: LocalView[]; omitted: number } | undefined> {
  const children =
    (
      await session.request<DebugProtocol.VariablesResponse>("variables", {
        variablesReference: variable.variablesReference,
      })
    ).body?.variables ?? [];
  // dlv answers a pointer with one unnamed child, the struct itself (`(*config)`), whose children are the fields.
  const only = children.length === 1 ? children[0] : undefined;
  const fields =
    only !== undefined && only.variablesReference > 0 && (only.name === "" || only.name.startsWith("*"))
      ? ((
          await session.request<DebugProtocol.VariablesResponse>("variables", {
            variablesReference: only.variablesReference,
          })
        ).body?.variables ?? [])
      : children;
  if (fields.length === 0) return undefined;
  return {
    fields: fields.slice(0, limits.fields).map((field) => view(field, limits.valueCharacters)),
    omitted: Math.max(0, fields.length - limits.fields),
  };
}

/**
 * The locals of a frame in one call, without stack → scopes → variables round trips: the frame's own
 * scopes (not globals or registers), the first `limits.count` variables, and the first
 * `limits.pointers` pointers to a struct expanded to their fields.
 */
export async function frameLocals(session: DebugSession, frameId: number, limits: LocalsLimits): Promise<FrameLocals> {
  const scopes = (await session.request<DebugProtocol.ScopesResponse>("scopes", { frameId })).body?.scopes ?? [];
  const own = scopes.filter((scope) => !scope.expensive && OWN_SCOPE.test(scope.name));
  const chosen = own.length > 0 ? own : scopes.filter((scope) => !scope.expensive).slice(0, 1);
  const lists = await Promise.all(
    chosen.map(
      async (scope) =>
        (
          await session.request<DebugProtocol.VariablesResponse>("variables", {
            variablesReference: scope.variablesReference,
          })
        ).body?.variables ?? [],
    ),
  );
  // debugpy lists `special variables` and `function variables` groups among the locals: not locals.
  const all = lists.flat().filter((variable) => !/^(special|function|class|protected) variables$/.test(variable.name));
  const shown = all.slice(0, limits.count);
  const pointers = shown.filter(isPointer).slice(0, limits.pointers);
  const expanded = new Map(
    await Promise.all(
      pointers.map(
        async (pointer) => [pointer, await pointee(session, pointer, limits).catch(() => undefined)] as const,
      ),
    ),
  );
  const locals = shown.map((variable) => {
    const row = view(variable, limits.valueCharacters);
    const inner = expanded.get(variable);
    return inner === undefined
      ? row
      : { ...row, fields: inner.fields, ...(inner.omitted > 0 ? { fields_omitted: inner.omitted } : {}) };
  });
  return { scopes: chosen.map((scope) => scope.name), locals, total: all.length, omitted: all.length - shown.length };
}

/** Locals as lines: `name (type) = value [reference N]`, a pointer's fields indented below it. */
export function formatLocals(result: FrameLocals, indent = "  "): string[] {
  const line = (local: LocalView, prefix: string): string =>
    `${prefix}${local.name}${local.type === undefined ? "" : ` (${local.type})`} = ${local.value}${local.reference > 0 ? ` [reference ${local.reference}]` : ""}`;
  const rows: string[] = [];
  for (const local of result.locals) {
    rows.push(line(local, indent));
    for (const field of local.fields ?? []) rows.push(line({ ...field, name: `.${field.name}` }, `${indent}  `));
    if (local.fields_omitted !== undefined)
      rows.push(
        `${indent}  … ${local.fields_omitted} more field(s) (op \`variables\` with reference ${local.reference})`,
      );
  }
  if (result.omitted > 0)
    rows.push(`${indent}… ${result.omitted} more local(s) not shown (op \`locals\` shows up to 50)`);
  return rows;
}
