import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { devBinary, realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["typescript-language-server"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

/** The rows many.ts holds for `scale`: five calls in each of series1…series12. */
const manyRows = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index).flatMap((series) =>
    [0, 1, 2, 3, 4].map((step) => `  ${series * 10 - 5 + step} in series${series}: scale(${series} + ${step}),`),
  );

describe.runIf(available)("navigation against the real typescript-language-server (navigation fixture, ts/)", () => {
  const suite = useRealServerRun("navigation", () => ({
    pathVariable: `${dirname(devBinary("typescript-language-server")!)}:${process.env["PATH"] ?? ""}`,
  }));
  const { call } = suite;
  const scale = { file: "ts/src/shapes.ts", line: 27, symbol: "scale" };

  it(
    "references come grouped by file, each in its enclosing symbol, 50 a page with the next offset",
    async () => {
      await call({ op: "hover", ...scale });
      await expect
        .poll(() => call({ op: "status", file: scale.file }), { timeout: slow, interval: 500 })
        .toMatch(/: running — /);
      const first = await call({ op: "references", ...scale });
      expect(first.split("\n").slice(0, 5)).toEqual([
        "1–50 of 68 references for `scale` at ts/src/shapes.ts:27; next: offset 50:",
        "ts/src/extra/totals.ts",
        '  1: import { scale } from "../shapes.js";',
        "  4 in total: return values.reduce((sum, value) => sum + scale(value), 0);",
        "ts/src/many.ts",
      ]);
      expect(first.split("\n").slice(6)).toEqual(manyRows(1, 10).slice(0, 47));
      expect(await call({ op: "references", ...scale, offset: 50 })).toBe(
        [
          "51–68 of 68 references for `scale` at ts/src/shapes.ts:27:",
          "ts/src/many.ts",
          ...manyRows(10, 12).slice(2),
          "ts/src/report.ts",
          '  1: import { scale, Square, type Shape } from "./shapes.js";',
          "  4 in describe: return `area ${scale(shape.area())}`;",
          "  9 in report: return [describe(square), String(scale(3))];",
          "ts/src/shapes.ts",
          "  19 in Square.area: return scale(raw);",
          "  27 in scale: export function scale(value: number): number {",
        ].join("\n"),
      );
      const past = await suite.run.call("lsp", { op: "references", ...scale, offset: 68 });
      expect(resultErrorCode(past)).toBe("invalid_input");
      expect(resultText(past)).toContain(
        "`offset` 68 is past the last of the 68 references for `scale` at ts/src/shapes.ts:27.",
      );
    },
    slow,
  );

  it(
    "`path` keeps a folder's or a glob's references, and says how many there are in all",
    async () => {
      expect(await call({ op: "references", ...scale, path: "ts/src/extra" })).toBe(
        [
          "2 references in `ts/src/extra` (of 68 in all) for `scale` at ts/src/shapes.ts:27:",
          "ts/src/extra/totals.ts",
          '  1: import { scale } from "../shapes.js";',
          "  4 in total: return values.reduce((sum, value) => sum + scale(value), 0);",
        ].join("\n"),
      );
      expect(await call({ op: "references", ...scale, path: "ts/**/report.ts" })).toMatch(
        /^3 references in `ts\/\*\*\/report\.ts` \(of 68 in all\) for `scale` at ts\/src\/shapes\.ts:27:\nts\/src\/report\.ts\n {2}1: import/,
      );
      expect(await call({ op: "references", ...scale, path: "ts/src/nowhere" })).toBe(
        "No references in `ts/src/nowhere` for `scale` at ts/src/shapes.ts:27 (68 elsewhere; widen or drop `path`).",
      );
      expect(resultErrorCode(await suite.run.call("lsp", { op: "references", ...scale, path: "../outside/**" }))).toBe(
        "outside_workdir",
      );
      expect(resultErrorCode(await suite.run.call("lsp", { op: "hover", ...scale, path: "ts/src" }))).toBe(
        "invalid_input",
      );
    },
    slow,
  );

  it(
    "incoming_calls: each call in its caller, filtered and paged like references",
    async () => {
      expect(await call({ op: "incoming_calls", ...scale, path: "ts/src/{report,shapes}.ts" })).toBe(
        [
          "3 calls in `ts/src/{report,shapes}.ts` (of 64 in all) for `scale` at ts/src/shapes.ts:27:",
          "ts/src/report.ts",
          "  4 in describe: return `area ${scale(shape.area())}`;",
          "  9 in report: return [describe(square), String(scale(3))];",
          "ts/src/shapes.ts",
          "  19 in Square.area: return scale(raw);",
        ].join("\n"),
      );
      const page = await call({ op: "incoming_calls", ...scale, path: "ts/src/*.ts", offset: 10 });
      expect(page.split("\n").slice(0, 3)).toEqual([
        "11–60 of 63 calls in `ts/src/*.ts` (of 64 in all) for `scale` at ts/src/shapes.ts:27; next: offset 60:",
        "ts/src/many.ts",
        "  25 in series3: scale(3 + 0),",
      ]);
    },
    slow,
  );

  it(
    "outgoing_calls: the calls a function makes, with each callee's declaration",
    async () => {
      // tsserver leaves out calls into the standard library (`String`).
      expect(await call({ op: "outgoing_calls", file: "ts/src/report.ts", line: 7, symbol: "report" })).toBe(
        [
          "3 calls made by `report` at ts/src/report.ts:7:",
          "ts/src/report.ts:8 → Square (ts/src/shapes.ts:14): const square = new Square(2);",
          "ts/src/report.ts:9 → describe (ts/src/report.ts:3): return [describe(square), String(scale(3))];",
          "ts/src/report.ts:9 → scale (ts/src/shapes.ts:27): return [describe(square), String(scale(3))];",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "implementation is grouped and named the same way",
    async () => {
      expect(await call({ op: "implementation", file: "ts/src/shapes.ts", line: 2, symbol: "Shape" })).toBe(
        [
          "2 implementations for `Shape` at ts/src/shapes.ts:2:",
          "ts/src/shapes.ts",
          "  6 in Polygon: export interface Polygon extends Shape {",
          "  14 in Square: export class Square implements Polygon {",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "supertypes and subtypes: tsserver has no type hierarchy, and status and the refusal say so",
    async () => {
      const refused = await suite.run.call("lsp", {
        op: "supertypes",
        file: "ts/src/shapes.ts",
        line: 14,
        symbol: "Square",
      });
      expect(resultErrorCode(refused)).toBe("unavailable");
      expect(resultText(refused)).toContain(
        "Language server `typescript` for `ts` does not support `supertypes` (`textDocument/prepareTypeHierarchy`): its capabilities have no `typeHierarchyProvider`.",
      );
      expect(await call({ op: "status", file: "ts/src/shapes.ts" })).toMatch(
        /- typescript @ ts: running — .* Lacks `supertypes`, `subtypes` \(not in its capabilities\)\.$/,
      );
    },
    slow,
  );

  it(
    "symbols of a file: top level and members, type aliases named so; `depth` and `kinds`",
    async () => {
      expect(await call({ op: "symbols", file: "ts/src/shapes.ts" })).toBe(
        [
          "12 symbols in ts/src/shapes.ts (2 deeper ones not shown: members' members, parameters and locals; pass `depth` 3 to see them):",
          "interface Shape — line 2",
          "  method area — line 3",
          "interface Polygon — line 6",
          "  method sides — line 7",
          "type alias Unit — line 10",
          "type alias Measure — line 12",
          "class Square — line 14",
          "  constructor constructor — line 15",
          "  property side — line 15",
          "  method area — line 17",
          "  method sides — line 22",
          "function scale — line 27",
        ].join("\n"),
      );
      const deeper = await call({ op: "symbols", file: "ts/src/shapes.ts", depth: 3 });
      expect(deeper).toMatch(/^14 symbols in ts\/src\/shapes\.ts:\n/);
      expect(deeper).toContain("  method area — line 17\n    constant raw — line 18\n");
      expect(await call({ op: "symbols", file: "ts/src/shapes.ts", depth: 1, kinds: ["type alias", "class"] })).toBe(
        [
          "3 `type alias` or `class` symbols in ts/src/shapes.ts (8 deeper ones not shown; pass `depth` 2 to see them):",
          "type alias Unit — line 10",
          "type alias Measure — line 12",
          "class Square — line 14",
        ].join("\n"),
      );
      expect(await call({ op: "symbols", file: "ts/src/shapes.ts", kinds: ["method"] })).toBe(
        [
          "4 `method` symbols in ts/src/shapes.ts (2 deeper ones not shown: members' members, parameters and locals; pass `depth` 3 to see them):",
          "method area (in Shape) — line 3",
          "method sides (in Polygon) — line 7",
          "method area (in Square) — line 17",
          "method sides (in Square) — line 22",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "a definition in TypeScript's own lib comes with its source line, and `source` reads it",
    async () => {
      const definition = await call({ op: "definition", file: "ts/src/report.ts", line: 9, symbol: "String" });
      const match = /\n(\/\S+\/lib\.es5\.d\.ts):(\d+): (.+)/.exec(definition);
      expect(match?.[3]).toMatch(/String/);
      const [, path, line, declaration] = match as unknown as [string, string, string, string];
      const source = await call({ op: "source", file: path, line: Number(line), end_line: Number(line) });
      expect(source.startsWith(`${path}:${line}–${line} of `)).toBe(true);
      // The answer's source line is trimmed; `source` shows the line as it is.
      expect(source.split("\n")[1]).toMatch(
        new RegExp(`^${line}  \\s*${declaration.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      );
    },
    slow,
  );
});
