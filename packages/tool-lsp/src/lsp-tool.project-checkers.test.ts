import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { chmodSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fileTree } from "./test-support/file-tree.js";
import { devBinary } from "./test-support/real-servers.js";
import { SCRIPTED_CHECKER } from "./test-support/scripted-checkers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

// A project-local program that is really the scripted checker, so which one ran shows in the answer.
function localProgram(path: string, scenario: string): void {
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${SCRIPTED_CHECKER}" ${scenario}\n`);
  chmodSync(path, 0o755);
}

describe('lsp diagnostics "*" through the tool (default server table)', () => {
  it("runs the checker found in the project's own bin directories (walking up to the workdir) before PATH, and forwards progress", async () => {
    const workdir = fileTree([
      "package.json",
      "packages/app/tsconfig.json",
      "node_modules/.bin/tsc",
      "python/pyproject.toml",
      "python/.venv/bin/pyright",
    ]);
    localProgram(join(workdir, "node_modules/.bin/tsc"), "crash");
    localProgram(join(workdir, "python/.venv/bin/pyright"), "clean");
    // PATH holds the real tsc and pyright: were it searched first, they would answer instead.
    const supervisor = createLspSupervisor({ pathVariable: dirname(devBinary("tsc")!) });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    const text = resultText(await run.call("lsp", { op: "diagnostics", file: "*" }));
    expect(text).toContain(
      "packages/app — `tsc --noEmit --pretty false --composite false --incremental false`: exited with code 2 without findings that could be read",
    );
    // The scripted checker's clean run prints nothing: for pyright's format that is not its JSON document.
    expect(text).toContain("python — `pyright --outputjson`: exited with code 0 without findings that could be read");
    expect(run.progress).toEqual([
      { message: "running `pyright --outputjson` in python (1 of 2)", progress: 0, total: 2 },
      {
        message: "running `tsc --noEmit --pretty false --composite false --incremental false` in packages/app (2 of 2)",
        progress: 1,
        total: 2,
      },
    ]);
  }, 60_000);

  it("a checker on no path is reported per project with its install hint, and the call still answers", async () => {
    const workdir = fileTree(["tools/go.mod", "crate/Cargo.toml"]);
    const supervisor = createLspSupervisor({ pathVariable: "/nonexistent-bin" });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    const result = await run.call("lsp", { op: "diagnostics", file: "*" });
    expect(result.isError).not.toBe(true);
    const go = DEFAULT_SERVERS.find((spec) => spec.id === "go")!.checker!;
    expect(resultText(result)).toContain(
      `tools — \`go vet ./...\`: not run: \`go\` is in none of the project's bin directories nor on PATH (7 places searched, first \`${join(workdir, "tools", "node_modules/.bin")}\`). Install it: ${go.install}.`,
    );
    expect(resultText(result)).toContain("crate — `cargo check --message-format=json`: not run: `cargo`");
    expect(resultText(result).split("\n")[0]).toBe(
      "Project checkers at or below `.`: 0 projects checked — 0 errors, 0 warnings; 2 projects not checked (below).",
    );
  });
});
