import type { ToolResult } from "@runbound/tool-kit";
import { dirname } from "node:path";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { lspOutputSchema } from "./lsp-output.js";
import { lspTool } from "./lsp-tool.js";
import { renameOutputSchema } from "./rename-output.js";
import { lspRenameTool } from "./rename-tool.js";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { devBinary, realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["typescript-language-server", "tsc"]);
const goplsAvailable = realProgramsAvailable(["gopls"]);
// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

/** The structured value as an MCP client receives it (JSON), parsed with the declared schema. */
function parsed<S extends v.GenericSchema>(schema: S, result: ToolResult): v.InferOutput<S> {
  expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
  return v.parse(schema, JSON.parse(JSON.stringify(result.structured)) as unknown);
}

it("lsp and lsp_rename declare their output schemas, which refuse what the tools never answer", () => {
  expect(lspTool.output).toBe(lspOutputSchema);
  expect(lspRenameTool.output).toBe(renameOutputSchema);
  expect(v.safeParse(lspOutputSchema, { op: "rename" }).success).toBe(false);
  expect(v.safeParse(lspOutputSchema, { op: "hover", hover: 1 }).success).toBe(false);
  expect(v.safeParse(renameOutputSchema, { renamed: "a", to: "b", edits: 1 }).success).toBe(false);
});

describe.runIf(available)("structured answers of lsp and lsp_rename against typescript-language-server", () => {
  const suite = useRealServerRun("navigation", () => ({
    pathVariable: `${dirname(devBinary("typescript-language-server")!)}:${process.env["PATH"] ?? ""}`,
  }));
  const lsp = async (input: Record<string, unknown>) => parsed(lspOutputSchema, await suite.run.call("lsp", input));
  const scale = { file: "ts/src/shapes.ts", line: 27, symbol: "scale" };

  it(
    "every op's answer matches the schema, empty answers included",
    async () => {
      expect(await lsp({ op: "status" })).toMatchObject({ op: "status", entries: [], projectTrusted: true });
      expect(await lsp({ op: "status", file: "ts/src/shapes.ts" })).toMatchObject({ state: "not started" });
      expect((await lsp({ op: "hover", ...scale })).hover).toContain("scale");
      await expect
        .poll(async () => (await lsp({ op: "status", file: scale.file })).state, { timeout: slow, interval: 500 })
        .toBe("running");
      expect((await lsp({ op: "status", file: scale.file })).entry).toMatchObject({ server: "typescript" });
      expect(await lsp({ op: "hover", file: "ts/src/shapes.ts", line: 1, symbol: "area" })).toEqual({
        op: "hover",
        hover: null,
      });

      const references = await lsp({ op: "references", ...scale });
      expect(references).toMatchObject({ total: 68, matched: 68, offset: 0, next: 50 });
      expect(references.places![0]).toEqual({
        path: "ts/src/extra/totals.ts",
        line: 1,
        source: 'import { scale } from "../shapes.js";',
      });
      expect(await lsp({ op: "references", ...scale, path: "ts/src/nowhere" })).toMatchObject({ matched: 0 });
      expect(
        (await lsp({ op: "implementation", file: "ts/src/shapes.ts", line: 2, symbol: "Shape" })).places,
      ).not.toEqual([]);
      expect((await lsp({ op: "incoming_calls", ...scale, path: "ts/src/report.ts" })).places).toContainEqual(
        expect.objectContaining({ path: "ts/src/report.ts", in: "describe" }),
      );
      expect(
        (await lsp({ op: "outgoing_calls", file: "ts/src/report.ts", line: 7, symbol: "report" })).calls,
      ).not.toEqual([]);
      expect((await lsp({ op: "definition", file: "ts/src/report.ts", line: 9, symbol: "scale" })).locations).toEqual([
        { path: "ts/src/shapes.ts", line: 27, source: "export function scale(value: number): number {" },
      ]);
      await lsp({ op: "type_definition", file: "ts/src/report.ts", line: 8, symbol: "square" });
      expect(await lsp({ op: "symbols", file: "ts/src/shapes.ts" })).toMatchObject({
        op: "symbols",
        deeper: expect.any(Number),
      });
      expect((await lsp({ op: "symbols", query: "Square" })).total).toBeGreaterThan(0);
      expect(await lsp({ op: "symbols", query: "NoSuchSymbolAnywhere" })).toMatchObject({ total: 0, symbols: [] });
      expect(await lsp({ op: "diagnostics", file: "ts/src/report.ts" })).toMatchObject({ complete: true });
      await lsp({ op: "code_actions", file: "ts/src/report.ts", line: 8, symbol: "square" });
      expect(await lsp({ op: "source", file: "ts/src/shapes.ts", line: 27, end_line: 28 })).toMatchObject({
        file: "ts/src/shapes.ts",
        line: 27,
        endLine: 28,
        total: 30,
      });
      const projects = await lsp({ op: "diagnostics", file: "ts/*" });
      expect(projects).toMatchObject({ scope: "ts", complete: true, leftOut: [] });
      expect(projects.projects).toEqual([expect.objectContaining({ root: "ts", state: "checked", errors: 0 })]);
      expect(await lsp({ op: "reload", file: "ts/src/shapes.ts" })).toMatchObject({ server: "typescript", root: "ts" });
    },
    slow * 2,
  );

  it(
    "lsp_rename's answer matches the schema",
    async () => {
      await expect
        .poll(async () => (await lsp({ op: "references", ...scale })).total, { timeout: slow, interval: 1_000 })
        .toBe(68);
      const renamed = parsed(renameOutputSchema, await suite.run.call("lsp_rename", { ...scale, new_name: "rescale" }));
      expect(renamed).toMatchObject({ renamed: "scale", to: "rescale" });
      expect(renamed.files.map((file) => file.shown)).toContain("ts/src/report.ts");
    },
    slow,
  );
});

// tsserver has no type hierarchy; gopls has.
describe.runIf(goplsAvailable)("structured answers of lsp's type hierarchy against gopls", () => {
  const suite = useRealServerRun("navigation");
  const lsp = async (input: Record<string, unknown>) => parsed(lspOutputSchema, await suite.run.call("lsp", input));

  it(
    "supertypes and subtypes match the schema",
    async () => {
      const square = { file: "go/shapes/shapes.go", line: 15, symbol: "Square" };
      await expect
        .poll(async () => (await lsp({ op: "supertypes", ...square })).total, { timeout: slow, interval: 1_000 })
        .toBeGreaterThan(0);
      expect((await lsp({ op: "supertypes", ...square })).types).not.toEqual([]);
      expect((await lsp({ op: "subtypes", file: "go/shapes/shapes.go", line: 4, symbol: "Shape" })).types).not.toEqual(
        [],
      );
    },
    slow,
  );
});
