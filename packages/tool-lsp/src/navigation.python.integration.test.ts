import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { devBinary, realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["pyright-langserver"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("navigation against the real pyright (navigation fixture, python/)", () => {
  const suite = useRealServerRun("navigation", () => ({
    pathVariable: `${dirname(devBinary("pyright-langserver")!)}:${process.env["PATH"] ?? ""}`,
  }));
  const { call } = suite;
  const scale = { file: "python/shop/shapes.py", line: 22, symbol: "scale" };

  it(
    "references grouped by file, each in its enclosing symbol; `path` keeps one file's",
    async () => {
      await call({ op: "hover", ...scale });
      await expect
        .poll(() => call({ op: "status", file: scale.file }), { timeout: slow, interval: 500 })
        .toMatch(/: running — /);
      expect(await call({ op: "references", ...scale })).toBe(
        [
          "5 references for `scale` at python/shop/shapes.py:22:",
          "python/shop/report.py",
          "  1: from shop.shapes import Shape, Square, scale",
          '  5 in describe: return f"area {scale(shape.area())}"',
          "  10 in report: return [describe(square), str(scale(3))]",
          "python/shop/shapes.py",
          "  19 in Square.area: return scale(raw)",
          "  22 in scale: def scale(value: float, factor: float = 1.0) -> float:",
        ].join("\n"),
      );
      expect(await call({ op: "references", ...scale, path: "python/shop/report.py" })).toMatch(
        /^3 references in `python\/shop\/report\.py` \(of 5 in all\) for `scale` at python\/shop\/shapes\.py:22:\npython\/shop\/report\.py\n/,
      );
    },
    slow,
  );

  it(
    "incoming_calls and outgoing_calls",
    async () => {
      expect(await call({ op: "incoming_calls", ...scale })).toBe(
        [
          "3 calls for `scale` at python/shop/shapes.py:22:",
          "python/shop/report.py",
          '  5 in describe: return f"area {scale(shape.area())}"',
          "  10 in report: return [describe(square), str(scale(3))]",
          "python/shop/shapes.py",
          "  19 in Square.area: return scale(raw)",
        ].join("\n"),
      );
      const outgoing = await call({ op: "outgoing_calls", file: "python/shop/report.py", line: 8, symbol: "report" });
      expect(outgoing).toMatch(/^4 calls made by `report` at python\/shop\/report\.py:8:\n/);
      expect(outgoing).toContain("python/shop/report.py:9 → Square (python/shop/shapes.py:13): square = Square(2)");
      expect(outgoing).toContain(
        "python/shop/report.py:10 → scale (python/shop/shapes.py:22): return [describe(square), str(scale(3))]",
      );
      // A callee outside the workdir (typeshed's builtins) is named by its absolute path.
      const callee = /python\/shop\/report\.py:10 → str \((\/.*\/builtins\.pyi):(\d+)\): /.exec(outgoing);
      expect(callee).not.toBeNull();
      const [, builtins, line] = callee as unknown as [string, string, string];
      // The callee's file lies outside the workdir; the answer named it, so `source` reads it.
      expect(
        (await call({ op: "source", file: builtins, line: Number(line), end_line: Number(line) })).split("\n")[1],
      ).toMatch(new RegExp(`^${line}  class str\\b`));
    },
    slow,
  );

  it(
    "pyright has no type hierarchy and no implementation: status and the refusals say so",
    async () => {
      expect(await call({ op: "status", file: scale.file })).toMatch(
        /- python @ python: running — .* Lacks `implementation`, `supertypes`, `subtypes` \(not in its capabilities\)\.$/,
      );
      const refused = await suite.run.call("lsp", {
        op: "subtypes",
        file: "python/shop/shapes.py",
        line: 6,
        symbol: "Shape",
      });
      expect(resultErrorCode(refused)).toBe("unavailable");
      expect(resultText(refused)).toContain(
        "Language server `python` for `python` does not support `subtypes` (`textDocument/prepareTypeHierarchy`)",
      );
    },
    slow,
  );

  it(
    "symbols of a file leave out parameters and locals unless `depth` asks, and name the TypeAlias",
    async () => {
      expect(await call({ op: "symbols", file: "python/shop/shapes.py" })).toBe(
        [
          "8 symbols in python/shop/shapes.py (5 deeper ones not shown: members' members, parameters and locals; pass `depth` 3 to see them):",
          "type alias Unit — line 3",
          "class Shape — line 6",
          "  method area — line 9",
          "class Square — line 13",
          "  method __init__ — line 14",
          "  variable side — line 15",
          "  method area — line 17",
          "function scale — line 22",
        ].join("\n"),
      );
      const deeper = await call({ op: "symbols", file: "python/shop/shapes.py", depth: 3 });
      expect(deeper).toMatch(/^13 symbols in python\/shop\/shapes\.py:\n/);
      expect(deeper).toContain(
        "function scale — line 22\n  variable value — line 22\n  variable factor — line 22\n  variable result — line 23",
      );
      expect(await call({ op: "symbols", file: "python/shop/shapes.py", kinds: ["class"] })).toBe(
        [
          "2 `class` symbols in python/shop/shapes.py (5 deeper ones not shown: members' members, parameters and locals; pass `depth` 3 to see them):",
          "class Shape — line 6",
          "class Square — line 13",
        ].join("\n"),
      );
      expect(
        resultErrorCode(
          await suite.run.call("lsp", { op: "symbols", file: "python/shop/shapes.py", kinds: ["klass"] }),
        ),
      ).toBe("invalid_input");
    },
    slow,
  );
});
