import { resultErrorCode } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["gopls"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("navigation against the real gopls (navigation fixture, go/)", () => {
  // gopls comes from PATH, where `.ci/run` put `$(go env GOPATH)/bin`.
  const suite = useRealServerRun("navigation");
  const { call } = suite;
  const scale = { file: "go/shapes/shapes.go", line: 26, symbol: "Scale" };

  it(
    "references grouped by file, each in its function or method; status lacks nothing",
    async () => {
      await call({ op: "hover", ...scale });
      await expect
        .poll(() => call({ op: "status", file: scale.file }), { timeout: slow, interval: 500 })
        .toMatch(/- go @ go: running — pid \d+, RSS \d+ MiB, up \d+ s, position encoding utf-16\.$/);
      expect(await call({ op: "references", ...scale })).toBe(
        [
          "4 references for `Scale` at go/shapes/shapes.go:26:",
          "go/main.go",
          '  10 in describe: return fmt.Sprint("area ", shapes.Scale(s.Area()))',
          "  15 in main: fmt.Println(describe(square), shapes.Scale(3))",
          "go/shapes/shapes.go",
          "  22 in (Square).Area: return Scale(raw)",
          "  26 in Scale: func Scale(value int) int {",
        ].join("\n"),
      );
      expect(await call({ op: "references", ...scale, path: "go/shapes", offset: 1 })).toBe(
        [
          "2–2 of 2 references in `go/shapes` (of 4 in all) for `Scale` at go/shapes/shapes.go:26:",
          "go/shapes/shapes.go",
          "  26 in Scale: func Scale(value int) int {",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "incoming_calls and outgoing_calls, a callee in the Go toolchain by its absolute path",
    async () => {
      expect(await call({ op: "incoming_calls", ...scale })).toBe(
        [
          "3 calls for `Scale` at go/shapes/shapes.go:26:",
          "go/main.go",
          '  10 in describe: return fmt.Sprint("area ", shapes.Scale(s.Area()))',
          "  15 in main: fmt.Println(describe(square), shapes.Scale(3))",
          "go/shapes/shapes.go",
          "  22 in (Square).Area: return Scale(raw)",
        ].join("\n"),
      );
      const outgoing = await call({ op: "outgoing_calls", file: "go/main.go", line: 9, symbol: "describe" });
      expect(outgoing.split("\n").slice(0, 3)).toEqual([
        "3 calls made by `describe` at go/main.go:9:",
        'go/main.go:10 → Area (go/shapes/shapes.go:5): return fmt.Sprint("area ", shapes.Scale(s.Area()))',
        'go/main.go:10 → Scale (go/shapes/shapes.go:26): return fmt.Sprint("area ", shapes.Scale(s.Area()))',
      ]);
      expect(outgoing).toMatch(/\ngo\/main\.go:10 → Sprint \(\/.*\/src\/fmt\/print\.go:\d+\): return fmt\.Sprint/);
    },
    slow,
  );

  it(
    "supertypes and subtypes: a struct and the interface it satisfies, named struct and interface",
    async () => {
      expect(await call({ op: "subtypes", file: "go/shapes/shapes.go", line: 4, symbol: "Shape" })).toBe(
        "1 subtype of `Shape` at go/shapes/shapes.go:4:\nstruct Square — go/shapes/shapes.go:15: type Square struct {",
      );
      expect(await call({ op: "supertypes", file: "go/shapes/shapes.go", line: 15, symbol: "Square" })).toBe(
        "1 supertype of `Square` at go/shapes/shapes.go:15:\ninterface Shape — go/shapes/shapes.go:4: type Shape interface {",
      );
      expect(await call({ op: "implementation", file: "go/shapes/shapes.go", line: 4, symbol: "Shape" })).toBe(
        "1 implementation for `Shape` at go/shapes/shapes.go:4:\ngo/shapes/shapes.go\n  15 in Square: type Square struct {",
      );
    },
    slow,
  );

  it(
    "symbols of a file: `type X func…` and `type X float64` are types, not a function and a class",
    async () => {
      expect(await call({ op: "symbols", file: "go/shapes/shapes.go" })).toBe(
        [
          "8 symbols in go/shapes/shapes.go:",
          "interface Shape interface{...} — line 4",
          "  method Area func() int — line 5",
          "type Measure func(s Shape) int — line 9",
          "type Celsius float64 — line 12",
          "struct Square struct{...} — line 15",
          "  field Side int — line 16",
          "method (Square).Area func() int — line 20",
          "function Scale func(value int) int — line 26",
        ].join("\n"),
      );
      expect(await call({ op: "symbols", file: "go/shapes/shapes.go", kinds: ["type", "function"] })).toBe(
        [
          "3 `type` or `function` symbols in go/shapes/shapes.go:",
          "type Measure func(s Shape) int — line 9",
          "type Celsius float64 — line 12",
          "function Scale func(value int) int — line 26",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "a location in the Go toolchain comes with its source line, and `source` reads around it",
    async () => {
      const definition = await call({ op: "definition", file: "go/main.go", line: 10, symbol: "Sprint" });
      const found = /\n(\/\S+\/src\/fmt\/print\.go):(\d+): func Sprint\(a \.\.\.any\) string \{$/.exec(definition);
      expect(found).not.toBeNull();
      const [, path, line] = found as unknown as [string, string, string];
      // Outside files come after the workdir's, by absolute path, with their source line (issue 25: they were bare paths).
      expect(await call({ op: "references", file: "go/main.go", line: 10, symbol: "Sprint" })).toBe(
        [
          "2 references for `Sprint` at go/main.go:10:",
          "go/main.go",
          '  10 in describe: return fmt.Sprint("area ", shapes.Scale(s.Area()))',
          path,
          `  ${line}: func Sprint(a ...any) string {`,
        ].join("\n"),
      );
      expect(await call({ op: "references", file: "go/main.go", line: 10, symbol: "Sprint", path: "go" })).toMatch(
        /^1 reference in `go` \(of 2 in all\)/,
      );
      const source = await call({ op: "source", file: path, line: Number(line) - 2, end_line: Number(line) });
      expect(source).toMatch(new RegExp(`^${path}:${Number(line) - 2}–${line} of \\d+ lines:\n`));
      expect(source.split("\n").at(-1)).toBe(`${line}  func Sprint(a ...any) string {`);
      const elsewhere = await suite.run.call("lsp", {
        op: "source",
        file: path.replace(/print\.go$/, "scan.go"),
        line: 1,
      });
      expect(resultErrorCode(elsewhere)).toBe("outside_workdir");
    },
    slow,
  );
});
