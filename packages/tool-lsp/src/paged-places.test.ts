import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SymbolKind } from "vscode-languageserver-protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { pageHeader, pagePlaces } from "./paged-places.js";
import { parsePathFilter } from "./path-filter.js";

describe("pagePlaces", () => {
  let workdir: string;
  const uri = (path: string): string => pathToFileURL(join(workdir, path)).href;
  beforeAll(() => {
    workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-paged-places-")));
    mkdirSync(join(workdir, "src", "deep"), { recursive: true });
    writeFileSync(join(workdir, "src", "b.ts"), "function run() {\n  call();\n}\ncall();\n");
    writeFileSync(join(workdir, "src", "deep", "a.ts"), `${"x".repeat(150)}\n`.repeat(40));
  });

  it("dedupes lines, sorts files inside the workdir first, groups them and names the enclosing symbol", async () => {
    const page = await pagePlaces({
      workdir,
      places: [
        { uri: "file:///usr/lib/go/src/fmt/print.go", line: 276 },
        { uri: uri("src/b.ts"), line: 3 },
        { uri: uri("src/b.ts"), line: 1 },
        { uri: uri("src/b.ts"), line: 1 },
        { uri: uri("src/deep/a.ts"), line: 0, enclosing: "caller" },
      ],
      offset: 0,
      cap: 50,
      maxBytes: 10_000,
      lookUp: async (paths) => {
        expect(paths).toEqual([join(workdir, "src/b.ts"), join(workdir, "src/deep/a.ts")]);
        const range = { start: { line: 0, character: 0 }, end: { line: 2, character: 1 } };
        return new Map([
          [
            join(workdir, "src/b.ts"),
            {
              text: "function run() {\n  call();\n}\ncall();\n",
              symbols: [{ name: "run", kind: SymbolKind.Function, range, selectionRange: range }],
            },
          ],
        ]);
      },
    });
    expect(page.rows).toEqual([
      "src/b.ts",
      "  2 in run: call();",
      "  4: call();",
      "src/deep/a.ts",
      `  1 in caller: ${"x".repeat(150)}`,
      "/usr/lib/go/src/fmt/print.go",
      "  277",
    ]);
    expect(page).toMatchObject({ total: 4, matched: 4, offset: 0 });
    expect(page.next).toBeUndefined();
    expect(pageHeader(page, ["reference", "references"], "`call` at src/b.ts:4", undefined)).toBe(
      "4 references for `call` at src/b.ts:4",
    );
  });

  it("cuts a page at the byte bound and gives the next offset from what it showed", async () => {
    const places = Array.from({ length: 40 }, (_, line) => ({ uri: uri("src/deep/a.ts"), line }));
    const page = await pagePlaces({ workdir, places, offset: 5, cap: 30, maxBytes: 2_000 });
    expect(page.shown).toHaveLength(12);
    expect(page.next).toBe(17);
    expect(pageHeader(page, ["reference", "references"], "`x`", undefined)).toBe(
      "6–17 of 40 references for `x`; next: offset 17",
    );
  });

  it("filters by path before paging, and the header says how many there were in all", async () => {
    const filter = await parsePathFilter(workdir, "src/deep");
    const places = [
      { uri: uri("src/b.ts"), line: 1 },
      ...Array.from({ length: 3 }, (_, line) => ({ uri: uri("src/deep/a.ts"), line })),
    ];
    const page = await pagePlaces({ workdir, places, filter, offset: 1, cap: 1, maxBytes: 10_000 });
    expect(page.shown.map((place) => `${place.path}:${place.line}`)).toEqual(["src/deep/a.ts:2"]);
    expect(pageHeader(page, ["reference", "references"], "`x`", filter)).toBe(
      "2–2 of 3 references in `src/deep` (of 4 in all) for `x`; next: offset 2",
    );
  });
});
