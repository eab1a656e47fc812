import { ToolError } from "@runbound/tool-kit";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectDiagnosticsOp, type ProjectDiagnosticsRequest } from "./project-diagnostics-op.js";
import { resolveBinary } from "./resolve-binary.js";
import type { LspServerSpec } from "./server-spec.js";
import { fileTree } from "./test-support/file-tree.js";
import { hangingPids, SCRIPTED_CHECKER, stillRunning } from "./test-support/scripted-checkers.js";

// One server entry per scenario, each with its own marker file, so one tree can hold several kinds of project.
function scripted(scenario: string, checker: Partial<LspServerSpec["checker"]> = {}): LspServerSpec {
  return {
    id: scenario,
    name: `scripted ${scenario}`,
    languages: { [`.${scenario}`]: scenario },
    rootMarkers: [[`${scenario}.toml`]],
    server: { command: "unused-server", args: [] },
    install: "nothing to install",
    checker: {
      command: process.execPath,
      args: [SCRIPTED_CHECKER, scenario],
      format: "tsc",
      install: "install the scripted checker",
      ...checker,
    },
  };
}

const tree = (files: readonly string[]): string => fileTree(files);

function call(workdir: string, servers: LspServerSpec[], settings: Partial<ProjectDiagnosticsRequest> = {}) {
  return projectDiagnosticsOp({
    workdir,
    file: "*",
    servers,
    findChecker: (_spec, checker, root) => resolveBinary(checker.command, root, workdir, process.env["PATH"] ?? ""),
    signal: new AbortController().signal,
    ...settings,
  });
}

describe("projectDiagnosticsOp with scripted checkers (real child processes)", () => {
  it("reports per project: rows cut with N of M and how to narrow, an unreadable failure with its stderr, a missing checker with its install hint; progress before each", async () => {
    const workdir = tree(["flood/flood.toml", "crash/crash.toml", "gone/gone.toml", "clean/clean.toml"]);
    const progress: string[] = [];
    const answer = await call(
      workdir,
      [
        scripted("flood"),
        scripted("crash"),
        scripted("gone", { command: "no-such-checker-program" }),
        scripted("clean"),
      ],
      {
        onProgress: (message, done, total) => progress.push(`${done}/${total} ${message}`),
      },
    );
    const lines = answer.text.split("\n");
    // The flood is cut at 8 MB, at the end of its last whole line.
    const kept = Math.floor(
      (8 * 1024 * 1024) /
        Buffer.byteLength(
          "src/generated.ts(1,1): error TS2304: Cannot find name 'generatedIdentifierThatDoesNotExistAnywhere'.\n",
        ),
    );
    expect(lines[0]).toBe(
      `Project checkers at or below \`.\`: 2 projects checked — at least ${kept} errors, 0 warnings; 2 projects not checked (below).`,
    );
    expect(answer.text).toMatch(
      new RegExp(
        `^flood — \`.+ flood\`: ${kept} errors, 0 warnings \\(\\d+\\.\\d s; its output passed the 8 MB kept, so there are at least this many\\)\\. 40 of ${kept} rows shown;`,
        "m",
      ),
    );
    expect(answer.text).toMatch(
      /; ask for this project alone with \{"op":"diagnostics","file":"flood\/\*"\} or for one file with \{"op":"diagnostics","file":"flood\/src\/generated\.ts"\}\.$/m,
    );
    expect(
      lines.filter(
        (line) =>
          line ===
          "flood/src/generated.ts:1: error TS2304: Cannot find name 'generatedIdentifierThatDoesNotExistAnywhere'.",
      ),
    ).toHaveLength(40);
    expect(answer.text).toContain(
      "crash — `" +
        process.execPath +
        " " +
        SCRIPTED_CHECKER +
        " crash`: exited with code 2 without findings that could be read (",
    );
    expect(answer.text).toContain(
      "so this is not a clean result. Its last stderr lines:\n  | panic: runtime error: index out of range [3] with length 3\n  | \n  | goroutine 1 [running]:\n  | main.main()",
    );
    expect(answer.text).toMatch(
      /^gone — `no-such-checker-program .+ gone`: not run: `no-such-checker-program` is in none of the project's bin directories nor on PATH \(\d+ places searched, first `.+\/gone\/node_modules\/\.bin`\)\. Install it: install the scripted checker\.$/m,
    );
    expect(answer.text).toMatch(/^clean — `.+ clean`: no errors or warnings \(\d+\.\d s\)\.$/m);
    expect(progress).toEqual([
      `0/4 running \`${process.execPath} ${SCRIPTED_CHECKER} clean\` in clean (1 of 4)`,
      `1/4 running \`${process.execPath} ${SCRIPTED_CHECKER} crash\` in crash (2 of 4)`,
      `2/4 running \`${process.execPath} ${SCRIPTED_CHECKER} flood\` in flood (3 of 4)`,
    ]);
    expect(answer.structured).toMatchObject({ op: "diagnostics", scope: ".", complete: false, leftOut: [] });
    expect(Buffer.byteLength(answer.text)).toBeLessThan(16 * 1024);
  }, 120_000);

  it("a failing checker's stderr is quoted by its last lines, each cut short", async () => {
    const workdir = tree(["loud/crash-loud.toml"]);
    const answer = await call(workdir, [scripted("crash-loud")]);
    const quoted = answer.text.split("\n").filter((line) => line.startsWith("  | "));
    expect(quoted.map((line) => line.slice(4, 7))).toEqual([
      "089",
      "090",
      "091",
      "092",
      "093",
      "094",
      "095",
      "096",
      "097",
      "098",
      "099",
      "100",
    ]);
    expect(quoted.every((line) => line.length === 4 + 300)).toBe(true);
  }, 60_000);

  it("a checker that hangs is stopped at the per-project timeout, the others still run, and nothing of it is left", async () => {
    const workdir = tree(["a-hang/hang.toml", "b-clean/clean.toml"]);
    const answer = await call(workdir, [scripted("hang"), scripted("clean")], { timeoutMs: 1_500 });
    expect(answer.text).toContain("a-hang — `");
    expect(answer.text).toContain(
      "did not finish within 1.5 s and was stopped with its processes, so its findings are unknown. Narrow the call to a smaller project, or run `",
    );
    expect(answer.text).toContain("Its last stderr lines:\n  | checking 1200 files\n  | ignoring SIGTERM");
    expect(answer.text).toMatch(/^b-clean — `.+ clean`: no errors or warnings/m);
    expect(answer.text.split("\n")[0]).toBe(
      "Project checkers at or below `.`: 1 project checked — 0 errors, 0 warnings; 1 project not checked (below).",
    );
    const pids = hangingPids(join(workdir, "a-hang"))!;
    expect(await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 60_000);

  it("cancelling the call kills the running checker's group and rejects", async () => {
    const workdir = tree(["hang/hang.toml"]);
    const controller = new AbortController();
    const running = call(workdir, [scripted("hang")], { signal: controller.signal });
    await expect.poll(() => hangingPids(join(workdir, "hang")), { timeout: 10_000 }).toBeDefined();
    controller.abort();
    const error = await running.catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error) && error.code).toBe("cancelled");
    const pids = hangingPids(join(workdir, "hang"))!;
    expect(await stillRunning([pids.checker, pids.helper])).toEqual([]);
  }, 60_000);

  it("checks at most the limit, names the projects left out and how to ask for them", async () => {
    const workdir = tree(["p1/clean.toml", "p2/clean.toml", "p3/clean.toml", "p4/clean.toml"]);
    const answer = await call(workdir, [scripted("clean")], { maxProjects: 2 });
    expect(answer.text.split("\n").slice(0, 2)).toEqual([
      "Project checkers at or below `.`: 2 projects checked — 0 errors, 0 warnings.",
      'Left out 2 of 4 projects (at most 2 a call): `p3` (clean), `p4` (clean); ask for them with {"op":"diagnostics","file":"<directory>/*"}.',
    ]);
    expect(answer.structured).toMatchObject({ complete: false, leftOut: ["p3", "p4"] });
  }, 60_000);

  it("`<directory>/*` checks the projects in that directory, or the one containing it", async () => {
    const workdir = tree([
      "packages/a/clean.toml",
      "packages/a/src/deep/x.txt",
      "packages/b/clean.toml",
      "other/clean.toml",
    ]);
    const inPackages = await call(workdir, [scripted("clean")], { file: "packages/*" });
    expect(inPackages.text.split("\n")[0]).toBe(
      "Project checkers at or below `packages`: 2 projects checked — 0 errors, 0 warnings.",
    );
    expect(inPackages.structured).toMatchObject({
      complete: true,
      projects: [{ root: "packages/a" }, { root: "packages/b" }],
    });
    const inside = await call(workdir, [scripted("clean")], { file: "packages/a/src/deep/**" });
    expect(inside.structured).toMatchObject({
      scope: "packages/a/src/deep",
      projects: [{ root: "packages/a", server: "clean", state: "checked" }],
    });
  }, 60_000);

  it("a root without the file its checker needs is named, not run", async () => {
    const workdir = tree(["web/clean.toml", "api/clean.toml", "api/tsconfig.json"]);
    const answer = await call(workdir, [scripted("clean", { needsOneOf: ["tsconfig.json"] })]);
    expect(answer.text.split("\n").slice(0, 2)).toEqual([
      "Project checkers at or below `.`: 1 project checked — 0 errors, 0 warnings.",
      `Not checked: \`web\` (\`clean.toml\` makes it a clean root, but \`${process.execPath}\` needs \`tsconfig.json\`).`,
    ]);
    const none = await call(workdir, [scripted("clean", { needsOneOf: ["tsconfig.json"] })], { file: "web/*" });
    expect(none.text).toBe(
      `No project at or below \`web\` can be checked. Not checked: \`web\` (\`clean.toml\` makes it a clean root, but \`${process.execPath}\` needs \`tsconfig.json\`). For one file's diagnostics from its language server, give the file, e.g. {"op":"diagnostics","file":"src/app.ts"}.`,
    );
  }, 60_000);

  it("no project at all is said as such, with the markers searched and the way to per-file diagnostics", async () => {
    const workdir = tree(["notes/readme.txt"]);
    const answer = await call(workdir, [scripted("clean")]);
    expect(answer.text).toBe(
      'No project with a checker at or below `.`: no directory there holds `clean.toml` (node_modules, .git, .venv, venv, target, dist, build are not searched). For one file\'s diagnostics from its language server, give the file, e.g. {"op":"diagnostics","file":"src/app.ts"}.',
    );
    expect(answer.structured).toEqual({ op: "diagnostics", scope: ".", complete: false, projects: [] });
  });

  it("refuses another glob and a directory that does not exist", async () => {
    const workdir = tree(["a/clean.toml"]);
    await expect(call(workdir, [scripted("clean")], { file: "src/*.ts" })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("`file` `src/*.ts` is neither a file nor a project scope."),
    });
    await expect(call(workdir, [scripted("clean")], { file: "a/*/b/*" })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(call(workdir, [scripted("clean")], { file: "a*" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(call(workdir, [scripted("clean")], { file: "missing/*" })).rejects.toMatchObject({
      code: "not_found",
      message:
        '`missing` (from `file` `missing/*`) is not a directory in the working directory. Give "*" for every project, or an existing directory followed by "/*".',
    });
    await expect(call(workdir, [scripted("clean")], { file: "../*" })).rejects.toMatchObject({
      code: "outside_workdir",
    });
  });
});
