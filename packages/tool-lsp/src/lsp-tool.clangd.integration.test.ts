import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import type { LanguageServerSession } from "./language-server-session.js";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { living } from "./test-support/scripted-servers.js";

const available = realProgramsAvailable(["clangd"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("lsp against the real clangd (c-project fixture with compile_flags.txt)", () => {
  // clangd comes from PATH (Debian's package, installed by `.ci/run`).
  const suite = useRealServerRun("c-project");
  const { call } = suite;
  let session: LanguageServerSession | undefined;

  it("status before anything ran starts nothing and names clangd for the compile_flags.txt root", async () => {
    expect(await call({ op: "status" })).toMatch(/- cpp: not started — program `.*\/clangd`/);
    expect(await call({ op: "status", file: "src/main.c" })).toMatch(
      /^src\/main\.c: not started — `cpp` for root `\.` \(marker `compile_flags\.txt`\), program `.*\/clangd`/,
    );
    expect(suite.supervisor.running()).toEqual([]);
  });

  it(
    "definition into the header after CJK and an emoji on the line, in the encoding clangd chose",
    async () => {
      const started = Date.now();
      const first = await call({ op: "definition", file: "src/main.c", line: 6, symbol: "area" });
      console.info(`clangd first answer (cold): ${Date.now() - started} ms`);
      // Without a background index clangd knows only what the open files include: the declaration.
      expect(first).toBe(
        "1 definition for `area` at src/main.c:6:\ninclude/geometry.h:5: int area(int width, int height);",
      );
      [session] = suite.supervisor.running();
      console.info(`clangd position encoding: ${session!.positionEncoding}`);
      // clangd 14 answers no `positionEncoding`, so UTF-16 holds: `area` is at column 43, where UTF-8
      // would say 49 (the CJK and the emoji are 3 and 4 bytes each), inside `side`.
      expect(session!.positionEncoding).toBe("utf-16");
      expect(await call({ op: "status", file: "src/main.c" })).toMatch(
        /- cpp @ \.: running — pid \d+, RSS \d+ MiB, up \d+ s, position encoding utf-16\./,
      );
    },
    slow,
  );

  it(
    "status while running: root, pid and resident memory",
    async () => {
      const [entry] = await suite.supervisor.entries(suite.workdir);
      expect(entry).toMatchObject({ server: "cpp", root: ".", state: "running", pid: session!.pid });
      expect(entry!.rssKiB).toBeGreaterThan(1024);
      console.info(`clangd resident memory on c-project: ${entry!.rssKiB} KiB`);
    },
    slow,
  );

  it(
    "hover gives the signature and the doc comment",
    async () => {
      const hover = await call({ op: "hover", file: "src/main.c", line: 6, symbol: "area" });
      expect(hover).toMatch(/^Hover for `area` at src\/main\.c:6:\n### function `area`/);
      expect(hover).toContain("Returns the area of a rectangle of the given width and height.");
      expect(hover).toContain("```cpp\nint area(int width, int height)\n```");
    },
    slow,
  );

  it(
    "document symbols of a file in source order",
    async () => {
      expect(await call({ op: "symbols", file: "src/geometry.c" })).toBe(
        "2 symbols in src/geometry.c:\nfunction area int (int, int) — line 3\nfunction perimeter int (struct square) — line 7",
      );
    },
    slow,
  );

  it(
    "once the defining file is open, definition goes across files to it and references list every use",
    async () => {
      expect(await call({ op: "definition", file: "src/main.c", line: 6, symbol: "area" })).toBe(
        "1 definition for `area` at src/main.c:6:\nsrc/geometry.c:3: int area(int width, int height) {",
      );
      expect(await call({ op: "references", file: "include/geometry.h", line: 5, symbol: "area" })).toBe(
        [
          "4 references for `area` at include/geometry.h:5:",
          "include/geometry.h",
          "  5 in area: int area(int width, int height);",
          "src/geometry.c",
          "  3 in area: int area(int width, int height) {",
          "src/main.c",
          '  6 in main: const char *label = "😀 世界"; int total = area(side, 4);',
          '  8 in main: printf("%s %d %d\\n", label, total, area(shape.side, shape.side));',
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "diagnostics of a file with an error, and of a clean one",
    async () => {
      expect(await call({ op: "diagnostics", file: "src/broken.c" })).toBe(
        "1 error, 0 warnings in src/broken.c — published by the server for version 1.\nsrc/broken.c:4: error clang undeclared_var_use: Use of undeclared identifier 'missing_value'",
      );
      expect(await call({ op: "diagnostics", file: "src/main.c" })).toMatch(
        /^No errors or warnings in src\/main\.c — /,
      );
    },
    slow,
  );

  it(
    'incoming_calls over the open files; type hierarchy and outgoing calls, which clangd 14 declares and answers with "method not found", are refused and listed in status',
    async () => {
      expect(await call({ op: "incoming_calls", file: "src/geometry.c", line: 3, symbol: "area" })).toBe(
        // Without a background index: the calls in the files open so far (broken.c since `diagnostics`).
        [
          "3 calls for `area` at src/geometry.c:3:",
          "src/broken.c",
          "  4 in broken: return area(1, 2) + missing_value;",
          "src/main.c",
          '  6 in main: const char *label = "😀 世界"; int total = area(side, 4);',
          '  8 in main: printf("%s %d %d\\n", label, total, area(shape.side, shape.side));',
        ].join("\n"),
      );
      const refused = await suite.run.call("lsp", {
        op: "supertypes",
        file: "include/geometry.h",
        line: 7,
        symbol: "square",
      });
      expect(resultErrorCode(refused)).toBe("unavailable");
      expect(resultText(refused)).toContain(
        'Language server `cpp` for `.` does not support `supertypes`: it declares the capability but answered `textDocument/prepareTypeHierarchy` with "method not found".',
      );
      expect(
        resultErrorCode(
          await suite.run.call("lsp", { op: "outgoing_calls", file: "src/main.c", line: 4, symbol: "main" }),
        ),
      ).toBe("unavailable");
      expect(await call({ op: "status", file: "src/main.c" })).toMatch(
        /position encoding utf-16\. Answered `supertypes`, `outgoing_calls` with "method not found"\.$/,
      );
    },
    slow,
  );

  it(
    "dispose leaves nothing of clangd's process group",
    async () => {
      const pid = session!.pid;
      console.info(
        `clangd resident memory after every op: ${(await suite.supervisor.entries(suite.workdir))[0]?.rssKiB} KiB`,
      );
      await suite.supervisor.dispose();
      expect(await living(pid)).toEqual([]);
    },
    slow,
  );
});
