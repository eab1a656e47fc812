import { randomUUID } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { processesWithEnvironment } from "./__fixtures__/process-table.js";
import { binPath, runCli } from "./__fixtures__/run-cli.js";

let project: string;
const marker = (): string => join(project, "ran.txt");
const testId = randomUUID();
// No language server or checker on PATH: only the project's own could answer.
const environment = { ...process.env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, RUNBOUND_TRUST_TEST: testId };

async function ran(): Promise<string[]> {
  const text = await readFile(marker(), "utf8").catch(() => "");
  return text.trim() === "" ? [] : text.trim().split("\n");
}

/** `runbound` in the project; afterwards nothing it started (the project's scripts included) is left. */
async function runbound(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const result = await runCli([...args, "-C", project], { env: environment });
  expect(processesWithEnvironment("RUNBOUND_TRUST_TEST", testId)).toEqual([]);
  return result;
}

const hover = ["call", "lsp", '{"op":"hover","file":"src/app.ts","line":1,"symbol":"answer"}'];
const projectDiagnostics = ["call", "lsp", '{"op":"diagnostics","file":"*"}'];

beforeEach(async () => {
  // A checkout whose own typescript-language-server and tsc are scripts that leave a line in ran.txt.
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-trust-")));
  await mkdir(join(project, "node_modules/.bin"), { recursive: true });
  await mkdir(join(project, "src"));
  await writeFile(join(project, "package.json"), '{"name":"untrusted","private":true}');
  await writeFile(join(project, "tsconfig.json"), '{"include":["src"]}');
  await writeFile(join(project, "src/app.ts"), "export const answer = 42;\n");
  for (const program of ["typescript-language-server", "tsc"]) {
    const path = join(project, "node_modules/.bin", program);
    await writeFile(path, `#!/bin/sh\necho ${program} >> "${marker()}"\nexit 1\n`);
    await chmod(path, 0o755);
  }
  return () => rm(project, { recursive: true, force: true });
});

describe("the project's own programs and --caller plan (issue 22, item 9)", () => {
  it('plan: lsp hover and diagnostics "*" run none of them, say which were passed over and how to trust', async () => {
    const answer = await runbound(...hover, "--caller", "plan");
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain(
      "the project's own `node_modules/.bin/typescript-language-server` was not run: this run does not trust programs from inside the working directory; to use it, run runbound with `--trust-project`",
    );
    const checkers = await runbound(...projectDiagnostics, "--caller", "plan");
    expect(checkers.stdout).toContain("the project's own `node_modules/.bin/tsc` was not run");
    const status = await runbound("status", "--caller", "plan");
    expect(status.stdout).toContain("Project programs are not trusted in this run");
    expect(status.stdout).toContain(
      "Passed over at the top of the working directory: `node_modules/.bin/typescript-language-server`. To trust the project, run runbound with `--trust-project` (caller `plan` can only use read tools, so it does not trust them by default).",
    );
    expect(await ran()).toEqual([]);
  }, 60_000);

  it("main trusts the project by default: its own programs are the ones started", async () => {
    await runbound(...hover);
    await runbound(...projectDiagnostics);
    expect(await ran()).toEqual(["typescript-language-server", "tsc"]);
    const status = await runbound("status");
    expect(status.stdout).not.toContain("not trusted");
  }, 60_000);

  it("--trust-project trusts it for plan, --no-trust-project distrusts it for main, and both at once are refused", async () => {
    await runbound(...hover, "--caller", "plan", "--trust-project");
    expect(await ran()).toEqual(["typescript-language-server"]);
    const distrusted = await runbound(...hover, "--no-trust-project");
    expect(distrusted.stdout).toContain("to use it, run runbound without `--no-trust-project`");
    expect(await ran()).toEqual(["typescript-language-server"]);
    const both = await runbound("status", "--trust-project", "--no-trust-project");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      "`--trust-project` and `--no-trust-project` contradict each other. Give one of them.",
    );
  }, 60_000);

  it("a worker of a run that does not trust the project does not either, and cannot be told to", async () => {
    const worker = `exec "${process.execPath}" "${binPath}" session -C "${project}"`;
    const brief = JSON.stringify({ id: 1, tool: "lsp", input: JSON.parse(hover[2]!) });
    const requests = [
      { id: 1, tool: "vibe_spawn", input: { brief, label: "hover" } },
      { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
    ];
    const stdin = requests.map((request) => JSON.stringify(request)).join("\n") + "\n";
    const session = await runCli(["session", "-C", project, "--no-trust-project", "--vibe", "--worker-fast", worker], {
      env: environment,
      stdin,
    });
    expect(processesWithEnvironment("RUNBOUND_TRUST_TEST", testId)).toEqual([]);
    expect(session.code).toBe(0);
    expect(session.stdout).toContain("completed");
    expect(session.stdout).toContain("RUNBOUND_TRUST_PROJECT=no");
    expect(await ran()).toEqual([]);
    const lifted = await runCli(["status", "-C", project, "--trust-project"], {
      env: { ...environment, RUNBOUND_TRUST_PROJECT: "no" },
    });
    expect(lifted.code).toBe(2);
    expect(lifted.stderr).toContain("`--trust-project` cannot lift RUNBOUND_TRUST_PROJECT=no");
    const garbled = await runCli(["status", "-C", project], { env: { ...environment, RUNBOUND_TRUST_PROJECT: "yes" } });
    expect(garbled.code).toBe(2);
    expect(garbled.stderr).toContain(
      "The environment variable RUNBOUND_TRUST_PROJECT is `yes`: the only value is `no`",
    );
  }, 120_000);
});
