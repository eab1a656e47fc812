import { listProcesses } from "@runbound/runtime-kit/testing";
import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createLspSupervisor,
  LspSupervisor,
  type LspSupervisorInstance,
  type LspSupervisorSettings,
} from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { resolveBinary } from "./resolve-binary.js";
import { fileTree } from "./test-support/file-tree.js";
import { devBinary } from "./test-support/real-servers.js";

const supervisors: LspSupervisorInstance[] = [];
const pids: number[] = [];

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
  // Every server a test started is gone from the process table once its supervisor is disposed.
  const alive = new Set((await listProcesses()).filter((row) => row.state !== "Z").map((row) => row.pid));
  expect(pids.splice(0).filter((pid) => alive.has(pid))).toEqual([]);
});

const untrusted = { trusted: false, howToTrust: "pass `--trust-project`" };

/** A project whose own typescript-language-server and tsc only leave a marker line (and exit), so running them shows. */
function projectWithOwnPrograms(): { workdir: string; ran: () => string[] } {
  const workdir = fileTree([
    "package.json",
    "tsconfig.json",
    "node_modules/.bin/typescript-language-server",
    "node_modules/.bin/tsc",
  ]);
  writeFileSync(join(workdir, "tsconfig.json"), '{"compilerOptions":{"strict":true},"include":["src"]}');
  writeFileSync(join(workdir, "package.json"), '{"name":"untrusted","private":true}');
  const marker = join(workdir, "ran.txt");
  for (const program of ["typescript-language-server", "tsc"]) {
    const path = join(workdir, "node_modules/.bin", program);
    writeFileSync(path, `#!/bin/sh\necho ${program} >> "${marker}"\nexit 1\n`);
    chmodSync(path, 0o755);
  }
  mkdirSync(join(workdir, "src"));
  writeFileSync(join(workdir, "src/app.ts"), "export const answer: number = 42;\n");
  return { workdir, ran: () => (existsSync(marker) ? readFileSync(marker, "utf8").trim().split("\n") : []) };
}

function runFor(
  workdir: string,
  settings: LspSupervisorSettings,
): {
  call: (input: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
  supervisor: LspSupervisorInstance;
} {
  const supervisor = createLspSupervisor(settings);
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, workdir],
    ],
  });
  return {
    supervisor,
    call: async (input) => {
      const result = await run.call("lsp", input);
      for (const session of supervisor.running()) pids.push(session.pid);
      return { text: resultText(result), isError: result.isError === true };
    },
  };
}

describe("project programs and trust (issue 22, item 9)", () => {
  it("untrusted: the project's own server and checker are not run; with none on PATH the answer says which were skipped and how to trust", async () => {
    const { workdir, ran } = projectWithOwnPrograms();
    const { call } = runFor(workdir, { pathVariable: "/nonexistent-bin", projectTrust: untrusted });
    const hover = await call({ op: "hover", file: "src/app.ts", line: 1, symbol: "answer" });
    expect(hover.isError).toBe(true);
    expect(hover.text).toContain(
      "Binary not found: the `typescript` server's program `typescript-language-server` (for root `.`, marker `tsconfig.json`) is not on PATH, and the project's own `node_modules/.bin/typescript-language-server` was not run: this run does not trust programs from inside the working directory; to use it, pass `--trust-project`, or install the server outside the project, on PATH.",
    );
    const project = await call({ op: "diagnostics", file: "*" });
    expect(project.text).toContain(
      "`tsc` is not on PATH, and the project's own `node_modules/.bin/tsc` was not run: this run does not trust programs from inside the working directory; to use it, pass `--trust-project`",
    );
    const status = await call({ op: "status" });
    expect(status.text).toContain(
      "- typescript: binary not found — `typescript-language-server` is not on PATH (the project's own `node_modules/.bin/typescript-language-server` was not run",
    );
    expect(status.text).toContain(
      "- go: binary not found — `gopls` is not on PATH (4 places searched; project programs are not trusted, see below). Install: go install",
    );
    expect(status.text).toContain("Project programs are not trusted in this run");
    expect(status.text).toContain(
      "Passed over at the top of the working directory: `node_modules/.bin/typescript-language-server`. To trust the project, pass `--trust-project`.",
    );
    expect(ran()).toEqual([]);
  });

  it("untrusted: PATH's server and checker answer instead, and status names the project's program passed over", async () => {
    const { workdir, ran } = projectWithOwnPrograms();
    const devBin = dirname(devBinary("typescript-language-server")!);
    const { call } = runFor(workdir, { pathVariable: devBin, projectTrust: untrusted });
    const hover = await call({ op: "hover", file: "src/app.ts", line: 1, symbol: "answer" });
    expect(hover.isError, hover.text).toBe(false);
    expect(hover.text).toContain("const answer: number");
    const status = await call({ op: "status", file: "src/app.ts" });
    expect(status.text).toContain(
      `program \`${join(devBin, "typescript-language-server")}\` (the project's own \`node_modules/.bin/typescript-language-server\` was not run`,
    );
    const project = await call({ op: "diagnostics", file: "*" });
    expect(project.text).toContain("0 errors");
    expect(ran()).toEqual([]);
  }, 60_000);

  it("trusted (the default): the project's own programs are the ones started", async () => {
    const { workdir, ran } = projectWithOwnPrograms();
    const { call } = runFor(workdir, { pathVariable: dirname(devBinary("typescript-language-server")!) });
    await call({ op: "hover", file: "src/app.ts", line: 1, symbol: "answer" });
    await call({ op: "diagnostics", file: "*" });
    expect(ran()).toEqual(["typescript-language-server", "tsc"]);
  }, 60_000);

  it("untrusted: a PATH entry that points into the working directory (an activated .venv) is the project's too", async () => {
    const workdir = fileTree(["pyproject.toml", ".venv/bin/pyright-langserver"]);
    chmodSync(join(workdir, ".venv/bin/pyright-langserver"), 0o755);
    const elsewhere = fileTree(["bin/pyright-langserver"]);
    chmodSync(join(elsewhere, "bin/pyright-langserver"), 0o755);
    const pathVariable = [join(workdir, ".venv/bin"), join(elsewhere, "bin")].join(delimiter);
    expect(await resolveBinary("pyright-langserver", workdir, workdir, pathVariable, process.env, untrusted)).toEqual({
      found: true,
      path: join(elsewhere, "bin/pyright-langserver"),
      untrusted: { paths: [join(workdir, ".venv/bin/pyright-langserver")], trust: untrusted },
    });
    expect(
      await resolveBinary("pyright-langserver", workdir, workdir, pathVariable, process.env, { trusted: true }),
    ).toEqual({ found: true, path: join(workdir, ".venv/bin/pyright-langserver") });
  });
});
