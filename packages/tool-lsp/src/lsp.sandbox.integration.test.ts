import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { createBubblewrapPlacement, detectBubblewrap, hostPlacement, type Placement } from "@runbound/runtime-kit";
import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fileTree } from "./test-support/file-tree.js";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { useWriteRun } from "./test-support/write-run.js";

// Issue 24: language servers and project checkers in the sandbox, opt-in (a host passes a placement).
const availability = await detectBubblewrap();
if (process.env["RUNBOUND_REQUIRE_REAL"] === "1" && !availability.available)
  throw new Error(`RUNBOUND_REQUIRE_REAL is set: ${availability.reason}`);
const available =
  availability.available && realProgramsAvailable(["typescript-language-server", "pyright-langserver", "gopls"]);
const slow = 180_000;

const sandbox = (workdir: string): Placement => {
  if (!availability.available) throw new Error(availability.reason);
  return createBubblewrapPlacement({ bwrap: availability.bwrap, version: availability.version, workdir });
};

describe.runIf(available)("language servers and their checkers in the sandbox", () => {
  const suite = useWriteRun("affected", (workdir) => ({ placement: sandbox(workdir) }));
  const { put, lsp, readText } = suite;

  it(
    "TypeScript: a write names the caller it broke, and the server outlives its first seconds (processId null)",
    { timeout: slow },
    async () => {
      const util = "ts/src/util.ts";
      await expect
        .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in ts/src/util.ts");
      const pid = suite.supervisor.running()[0]!.pid;
      // A server given a processId it cannot see in its PID namespace exits about 3 s after start.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(suite.supervisor.running().map((session) => session.pid)).toContain(pid);
      const original = await readText(util);
      const broken = await put(util, original.replace("label(name: string)", "label(name: string, times: number)"));
      expect(broken).toContain("ts/src/caller.ts:3: error typescript 2554: Expected 2 arguments, but got 1.");
      const fixed = await put(util, original);
      expect(fixed).toContain("ts/src/caller.ts: resolved 2 diagnostics");
      expect(await lsp({ op: "status" })).toContain("Servers and project checkers run in a sandbox (bubblewrap");
    },
  );

  it("Python: pyright names the caller a write broke", { timeout: slow }, async () => {
    const util = "python/pkg/util.py";
    await expect
      .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
      .toContain("No errors or warnings in python/pkg/util.py");
    const original = await readText(util);
    const broken = await put(util, original.replace("def label(name: str)", "def label(name: str, times: int)"));
    expect(broken).toMatch(
      /python\/pkg\/caller\.py:3: error Pyright reportCallIssue: Argument missing for parameter "times"/,
    );
    await put(util, original);
  });

  it("Go: gopls names the callers in other packages", { timeout: slow }, async () => {
    const util = "go/util/util.go";
    await expect
      .poll(() => lsp({ op: "diagnostics", file: util }), { timeout: slow, interval: 1_000 })
      .toContain("No errors or warnings in go/util/util.go");
    const original = await readText(util);
    const broken = await put(
      util,
      original.replace("func Label(name string) string {", "func Label(name string, times int) string {"),
    );
    expect(broken).toMatch(/go\/render\/render\.go:7: error .*not enough arguments in call to util\.Label/);
    await put(util, original);
  });

  it("the project checkers (tsc, pyright, go vet) run there too", { timeout: slow }, async () => {
    await writeFile(join(suite.workdir, "ts/src/legacy.ts"), 'export const count: number = "many";\n');
    await writeFile(join(suite.workdir, "python/pkg/legacy.py"), 'count: int = "many"\n');
    const ts = await lsp({ op: "diagnostics", file: "ts/*" });
    expect(ts).toContain("ts/src/legacy.ts:1: error TS2322");
    const python = await lsp({ op: "diagnostics", file: "python/*" });
    expect(python).toMatch(
      /python\/pkg\/legacy\.py:1: error .*"Literal\['many'\]" is not assignable to declared type "int"/,
    );
    const go = await lsp({ op: "diagnostics", file: "go/*" });
    expect(go).toContain("`go vet ./...`: no errors or warnings");
  });
});

// A trusted project's own server program is the project's code: in the sandbox it sees no secret of
// the host and none of its files; on the host it does (so the checks can fail).
describe.runIf(availability.available)("a project's own language server in the sandbox", () => {
  const secret = `secret-${randomUUID()}`;
  const homeFile = join(homedir(), `.runbound-lsp-sandbox-${randomUUID()}.txt`);
  const supervisors: LspSupervisorInstance[] = [];
  beforeAll(() => writeFileSync(homeFile, "a file in the user's home"));
  afterAll(() => rm(homeFile, { force: true }));
  afterEach(async () => {
    await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
  });

  /** What the project's `typescript-language-server` saw, as it wrote it into the workdir before failing to start. */
  async function seenBy(placementFor: (workdir: string) => Placement): Promise<string> {
    const workdir = fileTree(["package.json", "tsconfig.json", "node_modules/.bin/typescript-language-server"]);
    writeFileSync(join(workdir, "package.json"), '{"name":"own-server","private":true}');
    writeFileSync(join(workdir, "tsconfig.json"), "{}");
    const program = join(workdir, "node_modules/.bin/typescript-language-server");
    writeFileSync(
      program,
      `#!/bin/sh\n{ echo "secret: \${RUNBOUND_LSP_SANDBOX_SECRET:-unset}"; echo "home: $HOME"; echo "home file: $(cat "${homeFile}" 2>/dev/null || echo refused)"; } > "${join(workdir, "seen.txt")}"\nexit 1\n`,
    );
    chmodSync(program, 0o755);
    mkdirSync(join(workdir, "src"));
    writeFileSync(join(workdir, "src/app.ts"), "export const answer = 42;\n");
    const supervisor = createLspSupervisor({
      placement: placementFor(workdir),
      env: { ...process.env, RUNBOUND_LSP_SANDBOX_SECRET: secret },
      pathVariable: "/nonexistent-bin",
    });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    const answer = resultText(await run.call("lsp", { op: "hover", file: "src/app.ts", line: 1, symbol: "answer" }));
    expect(answer).toContain("exited with code 1 while answering `initialize`");
    const seen = join(workdir, "seen.txt");
    expect(existsSync(seen), answer).toBe(true);
    return readFileSync(seen, "utf8");
  }

  it("sees no secret and no home file in the sandbox", async () => {
    const seen = await seenBy(sandbox);
    expect(seen).toContain("secret: unset");
    expect(seen).toContain("home: /tmp/home");
    expect(seen).toContain("home file: refused");
  });

  it("sees both on the host (so the checks above can fail)", async () => {
    const seen = await seenBy(() => hostPlacement);
    expect(seen).toContain(`secret: ${secret}`);
    expect(seen).toContain("home file: a file in the user's home");
  });
});
