import type { DebugProtocol } from "@vscode/debugprotocol";
import { describe, expect, it } from "vitest";
import type { DebugSession } from "./debug-session.js";
import { formatLocals, frameLocals, STOP_LOCALS } from "./frame-locals.js";

const variable = (name: string, value: string, type: string, reference = 0): DebugProtocol.Variable => ({
  name,
  value,
  type,
  variablesReference: reference,
});

// A session that answers scopes and variables from a table, as the adapters shaped them.
function scripted(
  scopes: DebugProtocol.Scope[],
  children: Record<number, DebugProtocol.Variable[]>,
): { session: DebugSession; requests: string[] } {
  const requests: string[] = [];
  const session = {
    async request(command: string, args: { variablesReference?: number }) {
      requests.push(`${command}${args.variablesReference === undefined ? "" : ` ${args.variablesReference}`}`);
      if (command === "scopes") return { body: { scopes } };
      return { body: { variables: children[args.variablesReference!] ?? [] } };
    },
  } as unknown as DebugSession;
  return { session, requests };
}

describe("frameLocals", () => {
  it("reads the frame's own scopes only, skips debugpy's variable groups and caps count and value length", async () => {
    const many = Array.from({ length: 30 }, (_, index) => variable(`v${index}`, "x".repeat(500), "str"));
    const { session, requests } = scripted(
      [
        { name: "Locals", variablesReference: 1, expensive: false },
        { name: "Globals", variablesReference: 2, expensive: false },
        { name: "Registers", variablesReference: 3, expensive: true },
      ],
      { 1: [variable("special variables", "", "", 9), ...many] },
    );
    const locals = await frameLocals(session, 7, STOP_LOCALS);
    expect(requests).toEqual(["scopes", "variables 1"]);
    expect(locals).toMatchObject({ scopes: ["Locals"], total: 30, omitted: 10 });
    expect(locals.locals).toHaveLength(20);
    expect(locals.locals[0]).toMatchObject({ name: "v0", value_cut: 300 });
    expect(formatLocals(locals).at(-1)).toBe("  … 10 more local(s) not shown (op `locals` shows up to 50)");
  });

  it("expands a dlv pointer through its unnamed pointee to the struct's fields, and cuts a long type", async () => {
    const { session } = scripted([{ name: "Locals", variablesReference: 1, expensive: false }], {
      1: [
        variable("config", '*main.Config {Name: "web"}', "*main.Config", 2),
        variable("items", "[]int len: 3", `[]${"T".repeat(200)}`, 5),
      ],
      2: [variable("", 'main.Config {Name: "web"}', "main.Config", 3)],
      3: [variable("Name", '"web"', "string"), variable("Count", "3", "int")],
    });
    const locals = await frameLocals(session, 7, STOP_LOCALS);
    expect(locals.locals[0]!.fields!.map((field) => `${field.name}=${field.value}`)).toEqual(['Name="web"', "Count=3"]);
    expect(locals.locals[1]!.fields).toBeUndefined();
    expect(locals.locals[1]!.type!.length).toBe(81);
    expect(formatLocals(locals)).toEqual([
      '  config (*main.Config) = *main.Config {Name: "web"} [reference 2]',
      '    .Name (string) = "web"',
      "    .Count (int) = 3",
      `  items ([]${"T".repeat(78)}…) = []int len: 3 [reference 5]`,
    ]);
  });
});
