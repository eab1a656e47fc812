import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { untilNoProcessWithLastArgument } from "@runbound/runtime-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { binPath, runCli } from "./__fixtures__/run-cli.js";
import { resultTextOf, runSession } from "./__fixtures__/run-session.js";

// Issue 24: `--sandbox` from the command line, with the real bubblewrap CI installs.
let project: string;
beforeEach(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-sandbox-cli-")));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

const cell = (code: string) => [
  "call",
  "eval",
  JSON.stringify({ code, description: "show what the python kernel can see" }),
];

describe("runbound --sandbox", () => {
  it("by default runs eval's Python kernel in the sandbox: its own HOME, no secret of the host; off runs it on the host", async () => {
    const env = { ...process.env, RUNBOUND_CLI_SANDBOX_SECRET: "top secret", RUNBOUND_CLI_NAMED: "named" };
    const probe =
      'import os; print(os.environ.get("HOME"), os.environ.get("RUNBOUND_CLI_SANDBOX_SECRET"), os.environ.get("RUNBOUND_CLI_NAMED"))';
    const sandboxed = await runCli([...cell(probe), "-C", project, "--pass-env", "RUNBOUND_CLI_NAMED"], { env });
    expect(sandboxed.code).toBe(0);
    expect(sandboxed.stdout).toContain(", in a sandbox]");
    expect(sandboxed.stdout).toContain("/tmp/home None named");
    const host = await runCli([...cell(probe), "-C", project, "--sandbox", "off"], { env });
    expect(host.stdout).toContain(`${process.env["HOME"]} top secret named`);
    expect(host.stdout).not.toContain("in a sandbox");
  }, 60_000);

  it("by default runs a debuggee in the sandbox too: its own HOME, no secret of the host; off runs it on the host", async () => {
    const debugpyPython =
      process.env["RUNBOUND_DEBUGPY_PYTHON"] ?? join(homedir(), ".cache", "runbound", "debugpy-venv", "bin", "python");
    const env = { ...process.env, RUNBOUND_CLI_SANDBOX_SECRET: "top secret", RUNBOUND_DEBUGPY_PYTHON: debugpyPython };
    await writeFile(join(project, "pyproject.toml"), "[project]\nname = 'probe'\n");
    await writeFile(
      join(project, "probe.py"),
      'import os\nprint("seen:", os.environ.get("HOME"), os.environ.get("RUNBOUND_CLI_SANDBOX_SECRET"))\n',
    );
    const launch = ["call", "debug", JSON.stringify({ op: "launch", program: "probe.py" }), "-C", project];
    const sandboxed = await runCli(launch, { env });
    expect(sandboxed.stdout).toContain("ended with exit code 0");
    expect(sandboxed.stdout).toContain("seen: /tmp/home None");
    const host = await runCli([...launch, "--sandbox", "off"], { env });
    expect(host.stdout).toContain(`seen: ${process.env["HOME"]} top secret`);
  }, 60_000);

  it("status says where each kind of program runs, and why not in a sandbox when none can be made", async () => {
    const placed = await runCli(["status", "-C", project]);
    expect(placed.stdout).toContain(
      "eval's kernels (native Python, JavaScript, Pyodide's child): in a sandbox (bubblewrap",
    );
    expect(placed.stdout).toContain("vibe workers: in a sandbox (bubblewrap");
    expect(placed.stdout).toContain(
      "debug adapters and the programs they launch (an attach's adapter runs on the host, beside its program): in a sandbox (bubblewrap",
    );
    expect(placed.stdout).toContain(
      "language servers and project checkers: on the host, with this machine's files, network and environment (without --sandbox-servers)",
    );
    const servers = await runCli(["status", "-C", project, "--sandbox-servers"]);
    expect(servers.stdout).toContain("language servers and project checkers: in a sandbox (bubblewrap");
    // No bwrap on PATH: auto falls back to the host and says why; required refuses to open the run.
    const noBubblewrap = { ...process.env, PATH: "/nonexistent" };
    const fallback = await runCli(["status", "-C", project], { env: noBubblewrap });
    expect(fallback.stdout).toContain(
      "eval's kernels (native Python, JavaScript, Pyodide's child): on the host, with this machine's files, network and environment (no sandbox: bubblewrap (`bwrap`) is not on PATH",
    );
    const required = await runCli(["status", "-C", project, "--sandbox", "required"], { env: noBubblewrap });
    expect(required.code).toBe(3);
    expect(required.stderr).toContain(
      "--sandbox required, but no sandbox can be made here: bubblewrap (`bwrap`) is not on PATH",
    );
  }, 60_000);

  it("the exec tools' descriptions say where their programs run", async () => {
    const described = async (args: string[]) => {
      const listed = await runCli(["tools", "--format", "json", "-C", project, ...args]);
      const tools = JSON.parse(listed.stdout) as Array<{ name: string; description: string }>;
      return (name: string) => tools.find((tool) => tool.name === name)?.description ?? "";
    };
    const sandboxed = await described([]);
    expect(sandboxed("eval")).toContain("Where it runs: the kernels run in a sandbox (bubblewrap");
    expect(sandboxed("debug")).toContain(
      "Where it runs: the debug adapter and the program it launches run in a sandbox (bubblewrap",
    );
    expect(sandboxed("lsp")).not.toContain("Where it runs");
    const host = await described(["--sandbox", "off"]);
    expect(host("eval")).toContain(
      "Where it runs: the kernels run on the host, with this machine's files, network and environment (--sandbox off).",
    );
    const servers = await described(["--sandbox-servers"]);
    expect(servers("lsp")).toContain("Where it runs: its language servers and project checkers run in a sandbox");
  }, 60_000);

  it("refuses an unknown mode and a --pass-env that is not a variable name", async () => {
    const mode = await runCli(["status", "-C", project, "--sandbox", "maybe"]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain(
      "Unknown choice `maybe` for --sandbox. Use --sandbox auto, --sandbox required, --sandbox off.",
    );
    const name = await runCli(["status", "-C", project, "--pass-env", "HF TOKEN"]);
    expect(name.code).toBe(2);
    expect(name.stderr).toContain("`HF TOKEN` in --pass-env is not an environment variable name");
  });

  it("runs vibe workers in the sandbox: the named variables and their own, not the host's secrets or home; a runbound worker still works, and nothing is left", async () => {
    const marker = `runbound-worker-sandbox-${randomUUID()}`;
    const homeFile = join(homedir(), `.${marker}.txt`);
    await writeFile(homeFile, "a file in the user's home");
    try {
      // A shell worker reports what it sees and leaves a detached sleeper behind, named by the marker.
      const shellWorker = `echo "home=$HOME secret=\${RUNBOUND_WORKER_TEST_SECRET:-unset} key=\${RUNBOUND_WORKER_TEST_KEY:-unset} id=$RUNBOUND_WORKER_ID"; cat "${homeFile}" 2>/dev/null || echo "home file: unreadable"; setsid sleep 300 ${marker} </dev/null >/dev/null 2>&1 &`;
      const env = { ...process.env, RUNBOUND_WORKER_TEST_SECRET: "top secret", RUNBOUND_WORKER_TEST_KEY: "model key" };
      const shell = await runSession(
        project,
        ["--vibe", "--worker-fast", shellWorker, "--worker-env", "RUNBOUND_WORKER_TEST_KEY"],
        [
          { id: 1, tool: "vibe_spawn", input: { brief: "report", label: "reporter" } },
          { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 60 } },
        ],
        env,
      );
      const reported = resultTextOf(shell[1]!);
      expect(reported).toContain("home=/tmp/home secret=unset key=model key id=w1");
      expect(reported).toContain("home file: unreadable");
      // The session and its roster are gone: the worker's detached sleeper went with its sandbox.
      expect(await untilNoProcessWithLastArgument(marker, 5_000)).toEqual([]);
      // runbound itself as a sandboxed worker: it reads its own installation and writes the workdir.
      const brief = JSON.stringify({
        id: 1,
        tool: "write",
        input: { path: "from-worker.txt", content: "written in the sandbox\n" },
      });
      const session = await runSession(
        project,
        ["--vibe", "--worker-fast", `exec "${process.execPath}" "${binPath}" session -C "${project}"`],
        [
          { id: 1, tool: "vibe_spawn", input: { brief, label: "writer" } },
          { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
        ],
      );
      expect(resultTextOf(session[1]!)).toContain("completed");
      expect(await readFile(join(project, "from-worker.txt"), "utf8")).toBe("written in the sandbox\n");
    } finally {
      await rm(homeFile, { force: true });
    }
  }, 120_000);
});
