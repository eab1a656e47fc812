import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { copyFixture, devBinary, realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["tsc", "pyright"]);
const onPath = (program: string): boolean => spawnSync(program, ["version"], { stdio: "ignore" }).status === 0;
const goAvailable = onPath("go");
const cargoAvailable = onPath("cargo");
if (process.env["RUNBOUND_REQUIRE_REAL"] === "1" && !goAvailable)
  throw new Error("RUNBOUND_REQUIRE_REAL is set but `go` is not on PATH; install Go.");

// The checkers' first runs on a busy 2-core machine take seconds each; the budget bounds a hang, not speed.
const slow = 240_000;

function timed(label: string, started: number): void {
  console.info(`${label}: ${Date.now() - started} ms`);
}

describe.runIf(available)('lsp diagnostics "*" with the real checkers', () => {
  let supervisor: LspSupervisorInstance;
  let run: FakeRun;
  let workdir: string;
  const call = async (input: Record<string, unknown>): Promise<string> => resultText(await run.call("lsp", input));

  beforeAll(() => {
    workdir = copyFixture("checker-projects");
    // The copy has no node_modules: the dev tsc and pyright come from PATH, after each root's own bin directories.
    supervisor = createLspSupervisor({ pathVariable: `${dirname(devBinary("tsc")!)}:${process.env["PATH"] ?? ""}` });
    run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
  });

  afterAll(async () => {
    await supervisor?.dispose();
  });

  it(
    "tsc in a sub-package: workspace-relative rows, sorted; progress forwarded; no language server started",
    async () => {
      const started = Date.now();
      const text = await call({ op: "diagnostics", file: "packages/*" });
      timed("tsc --noEmit on packages/app", started);
      expect(text).toMatch(
        new RegExp(
          [
            "^Project checkers at or below `packages`: 1 project checked — 3 errors, 0 warnings\\.",
            "packages/app — `tsc --noEmit --pretty false --composite false --incremental false`: 3 errors, 0 warnings \\(\\d+\\.\\d s\\)\\.",
            "packages/app/src/main\\.ts:3: error TS2322: Type 'string' is not assignable to type 'number'\\.",
            "packages/app/src/main\\.ts:4: error TS2304: Cannot find name 'missingName'\\.",
            "packages/app/src/total\\.ts:5: error TS2322: Type 'number' is not assignable to type 'string'\\.$",
          ].join("\\n"),
        ),
      );
      expect(run.progress.map((update) => update.message)).toContain(
        "running `tsc --noEmit --pretty false --composite false --incremental false` in packages/app (1 of 1)",
      );
      expect(supervisor.running()).toEqual([]);
    },
    slow,
  );

  it(
    "pyright on a src-layout project: its JSON read into the same rows",
    async () => {
      const started = Date.now();
      const text = await call({ op: "diagnostics", file: "python/*" });
      timed("pyright --outputjson on python", started);
      expect(text).toMatch(/^python — `pyright --outputjson`: 2 errors, 0 warnings \(\d+\.\d s\)\.$/m);
      expect(text).toContain(
        'python/src/inventory/stock.py:6: error reportAssignmentType: Type "int" is not assignable to declared type "str"\npython/src/inventory/stock.py:7: error reportUndefinedVariable: "undefined_name" is not defined',
      );
    },
    slow,
  );

  it.runIf(goAvailable)(
    "go vet on a tiny module: its stderr findings as warnings",
    async () => {
      const started = Date.now();
      const text = await call({ op: "diagnostics", file: "tools/vet/*" });
      timed("go vet ./... on tools/vet", started);
      expect(text).toMatch(
        /^tools\/vet — `go vet \.\/\.\.\.`: 0 errors, 1 warning \(\d+\.\d s\)\.\ntools\/vet\/main\.go:7: warning: fmt\.Printf format %d has arg name of wrong type string$/m,
      );
    },
    slow,
  );

  it(
    '"*" checks every project of the tree in one answer and names the root that cannot be checked',
    async () => {
      const started = Date.now();
      const text = await call({ op: "diagnostics", file: "*" });
      timed("all checkers on checker-projects", started);
      const lines = text.split("\n");
      const checked = 2 + Number(goAvailable) + Number(cargoAvailable);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Project checkers at or below \`\\.\`: ${checked} projects checked — ${5 + Number(cargoAvailable)} errors, ${Number(goAvailable)} warnings?(; \\d+ projects? not checked \\(below\\))?\\.$`,
        ),
      );
      expect(lines[1]).toBe(
        "Not checked: `.` (`package.json` makes it a typescript root, but `tsc` needs `tsconfig.json`).",
      );
      expect(text).toContain("packages/app/src/main.ts:3: error TS2322:");
      expect(text).toContain("python/src/inventory/stock.py:7: error reportUndefinedVariable:");
      if (cargoAvailable)
        expect(text).toMatch(
          /^rust — `cargo check --message-format=json`: 1 error, 0 warnings \(\d+\.\d s\)\.\nrust\/src\/main\.rs:3: error E0308: mismatched types$/m,
        );
      expect(supervisor.running()).toEqual([]);
    },
    slow,
  );

  it(
    "a composite, incremental project is checked without writing a .tsbuildinfo into it",
    async () => {
      const project = copyFixture("checker-projects");
      const config = join(project, "packages/app/tsconfig.json");
      const options = JSON.parse(readFileSync(config, "utf8")) as { compilerOptions: Record<string, unknown> };
      writeFileSync(
        config,
        JSON.stringify({
          ...options,
          compilerOptions: {
            ...options.compilerOptions,
            composite: true,
            incremental: true,
            noEmit: undefined,
            outDir: "out",
          },
        }),
      );
      const other = createFakeRun({
        plugins: [lspPlugin],
        resources: [
          [LspSupervisor, supervisor],
          [Workdir, project],
        ],
      });
      const text = resultText(await other.call("lsp", { op: "diagnostics", file: "packages/app/*" }));
      expect(text).toMatch(/^packages\/app — `tsc [^`]+`: 3 errors, 0 warnings/m);
      expect(
        readdirSync(project, { recursive: true, encoding: "utf8" }).filter(
          (name) => name.endsWith(".tsbuildinfo") || name.startsWith("packages/app/out"),
        ),
      ).toEqual([]);
    },
    slow,
  );

  it(
    "on the monorepo fixture: the sub-package's real error, and a clean Python project said clean",
    async () => {
      const monorepo = copyFixture("monorepo");
      const other = createFakeRun({
        plugins: [lspPlugin],
        resources: [
          [LspSupervisor, supervisor],
          [Workdir, monorepo],
        ],
      });
      const started = Date.now();
      const text = resultText(await other.call("lsp", { op: "diagnostics", file: "*" }));
      timed("tsc + pyright on monorepo", started);
      expect(text).toMatch(/^Project checkers at or below `\.`: 2 projects checked — 1 error, 0 warnings\.$/m);
      expect(text).toMatch(
        /^packages\/web — `tsc --noEmit --pretty false --composite false --incremental false`: 1 error, 0 warnings \(\d+\.\d s\)\.\npackages\/web\/src\/broken\.ts:1: error TS2322: Type 'string' is not assignable to type 'number'\.$/m,
      );
      expect(text).toMatch(/^python — `pyright --outputjson`: no errors or warnings \(\d+\.\d s\)\.$/m);
    },
    slow,
  );
});
