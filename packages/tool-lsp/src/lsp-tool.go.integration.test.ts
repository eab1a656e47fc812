import { describe, expect, it } from "vitest";
import type { LanguageServerSession } from "./language-server-session.js";
import { useRealServerRun } from "./test-support/real-server-run.js";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { living } from "./test-support/scripted-servers.js";

const available = realProgramsAvailable(["gopls"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("lsp against the real gopls (go-module fixture)", () => {
  // gopls comes from PATH, where `.ci/run` put `$(go env GOPATH)/bin`.
  const suite = useRealServerRun("go-module");
  const { call } = suite;
  let session: LanguageServerSession | undefined;

  it("status before anything ran starts nothing and names gopls for the module root", async () => {
    expect(await call({ op: "status" })).toMatch(/- go: not started — program `.*\/gopls`/);
    expect(await call({ op: "status", file: "main.go" })).toMatch(
      /^main\.go: not started — `go` for root `\.` \(marker `go\.mod`\), program `.*\/gopls`/,
    );
    expect(suite.supervisor.running()).toEqual([]);
  });

  it(
    "definition across packages after CJK and an emoji on the line, in the encoding gopls chose",
    async () => {
      const started = Date.now();
      const first = await call({ op: "definition", file: "main.go", line: 10, symbol: "Area" });
      console.info(`gopls first answer (cold): ${Date.now() - started} ms`);
      expect(first).toBe(
        "1 definition for `Area` at main.go:10:\ngeometry/area.go:4: func Area(width, height int) int {",
      );
      [session] = suite.supervisor.running();
      console.info(`gopls position encoding: ${session!.positionEncoding}`);
      // gopls v0.23 keeps UTF-16, the first encoding the client offers; the column of `Area` is then 34
      // (UTF-8 would say 44: the CJK and the emoji are 3 and 4 bytes each).
      expect(session!.positionEncoding).toBe("utf-16");
      await expect
        .poll(() => call({ op: "status", file: "main.go" }), { timeout: slow, interval: 500 })
        .toMatch(/- go @ \.: running — pid \d+, RSS \d+ MiB, up \d+ s, position encoding utf-16\./);
    },
    slow,
  );

  it(
    "status while running: root, pid and resident memory",
    async () => {
      const [entry] = await suite.supervisor.entries(suite.workdir);
      expect(entry).toMatchObject({ server: "go", root: ".", state: "running", pid: session!.pid });
      expect(entry!.rssKiB).toBeGreaterThan(1024);
      console.info(`gopls resident memory on go-module: ${entry!.rssKiB} KiB`);
    },
    slow,
  );

  it(
    "references of a function across files, with the declaration",
    async () => {
      expect(await call({ op: "references", file: "geometry/area.go", line: 4, symbol: "Area" })).toBe(
        [
          "3 references for `Area` at geometry/area.go:4:",
          "geometry/area.go",
          "  4 in Area: func Area(width, height int) int {",
          "main.go",
          '  10 in main: 名前 := "😀 世界"; total := geometry.Area(len(名前), 2)',
          "  12 in main: fmt.Println(total, square.Perimeter(), geometry.Area(1, 1))",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "hover gives the signature and the doc comment",
    async () => {
      const hover = await call({ op: "hover", file: "main.go", line: 12, symbol: "Perimeter" });
      expect(hover).toMatch(
        /^Hover for `Perimeter` at main\.go:12:\n```go\nfunc \(s geometry\.Square\) Perimeter\(\) int\n```\n/,
      );
      expect(hover).toContain("Perimeter returns the length of the square's outline.");
    },
    slow,
  );

  it(
    "document symbols of a file in source order",
    async () => {
      const outline = await call({ op: "symbols", file: "geometry/area.go" });
      expect(outline).toBe(
        [
          "4 symbols in geometry/area.go:",
          "function Area func(width, height int) int — line 4",
          "struct Square struct{...} — line 9",
          "  field Side int — line 10",
          "method (Square).Perimeter func() int — line 14",
        ].join("\n"),
      );
    },
    slow,
  );

  it(
    "diagnostics of a file with a type error",
    async () => {
      await expect
        .poll(() => call({ op: "diagnostics", file: "broken/broken.go" }), { timeout: slow, interval: 1_000 })
        .toMatch(
          /^1 error, 0 warnings in broken\/broken\.go — .*\nbroken\/broken\.go:3: error compiler IncompatibleAssign: cannot use "three" \(untyped string constant\) as int value in variable declaration/,
        );
    },
    slow,
  );

  it(
    "dispose leaves nothing of gopls's process group",
    async () => {
      const pid = session!.pid;
      console.info(
        `gopls resident memory after every op: ${(await suite.supervisor.entries(suite.workdir))[0]?.rssKiB} KiB`,
      );
      await suite.supervisor.dispose();
      expect(await living(pid)).toEqual([]);
    },
    slow,
  );
});
