import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { createBubblewrapPlacement, detectBubblewrap, hostPlacement, type Placement } from "@runbound/runtime-kit";
import { listProcessesByLastArgument, untilNoProcessWithLastArgument } from "@runbound/runtime-kit/testing";
import { defineTool, resultText, Workdir, type ToolResult } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import * as v from "valibot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEvalTool, type EvalSettings } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { startPyodideKernel } from "./pyodide-kernel.js";
import { KernelFactory } from "./kernel.js";
import { fixtureProject, testVirtualenv } from "./test-support/python-fixtures.js";

// Issue 24: a native Python cell in the sandbox, tried as an attacker would; the same cell on the
// host succeeds at each attempt, so every check can fail.
const venv = testVirtualenv();
const availability = await detectBubblewrap();
const requireReal = process.env["RUNBOUND_REQUIRE_REAL"] === "1";
const marker = `runbound-eval-sandbox-${randomUUID()}`;
const secret = `secret-${randomUUID()}`;

const echo = defineTool({
  name: "echo",
  tier: "read",
  description: "Echoes.",
  input: v.strictObject({ text: v.string() }),
  requires: [],
  parallelSafe: true,
  run: async (input) => `echo: ${input.text}`,
});

let homeFile: string;
let outside: string;
let listener: Server;
let port: number;
const factories: HostKernelFactory[] = [];

beforeAll(async () => {
  homeFile = join(homedir(), `.${marker}.txt`);
  await writeFile(homeFile, "a file in the user's home");
  outside = fixtureProject();
  listener = createServer((socket) => socket.end("hello from the host"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  listener.close();
  await rm(homeFile, { force: true });
  await rm(outside, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(factories.splice(0).map((factory) => factory.dispose()));
});

const markedProcesses = () => listProcessesByLastArgument(marker);
const untilNoMarked = (budgetMs: number) => untilNoProcessWithLastArgument(marker, budgetMs);

/** A host cell's detached child outlived its kernel (the check below can fail); end it. */
async function expectOutlivedThenEnd(): Promise<void> {
  expect((await markedProcesses()).length).toBe(1);
  for (const pid of await markedProcesses()) process.kill(pid, "SIGKILL");
  expect(await untilNoMarked(5_000)).toEqual([]);
}

/** What a sandboxed cell must report: nothing of the host, the workdir writable, the bridge working. */
function expectConfined(answer: string, refusals: { missing: string; network: string }): void {
  expect(answer).toContain("secret: unset");
  expect(answer).toContain("home: /tmp/home");
  for (const attempt of ["home file", "through symlink", "outside"])
    expect(answer).toContain(`${attempt}: refused: ${refusals.missing}`);
  expect(answer).toContain("workdir: written");
  expect(answer).toContain(`network: refused: ${refusals.network}`);
  expect(answer).toContain("bridge: echo: through the channel");
}

async function evalSession(placementFor: (workdir: string) => Placement, settings: EvalSettings = {}) {
  const workdir = fixtureProject(venv);
  await symlink(homeFile, join(workdir, "link-to-home"));
  const factory = createHostKernelFactory({
    python: "native",
    placement: placementFor(workdir),
    env: { ...process.env, RUNBOUND_EVAL_SANDBOX_SECRET: secret },
  });
  // The JavaScript kernel inherits this process's environment: the secret is there for it to find.
  process.env["RUNBOUND_EVAL_SANDBOX_SECRET"] = secret;
  factories.push(factory);
  const run = createFakeRun({
    tools: [createEvalTool(settings), echo],
    resources: [
      [KernelFactory, factory],
      [Workdir, workdir],
    ],
  });
  const call = async (code: string, language: "python" | "javascript" = "python"): Promise<string> =>
    resultText((await run.call("eval", { code, language, description: "probe what a cell can reach" })) as ToolResult);
  return { workdir, factory, call };
}

// One cell: every attempt as a line `name: outcome`.
const probes = (workdir: string) => `
import os, socket, subprocess, sys
def attempt(action):
    try:
        return action()
    except Exception as error:
        return "refused: " + type(error).__name__
print("secret:", os.environ.get("RUNBOUND_EVAL_SANDBOX_SECRET", "unset"))
print("home:", os.environ.get("HOME"))
print("home file:", attempt(lambda: open(${JSON.stringify(homeFile)}).read()))
print("through symlink:", attempt(lambda: open("link-to-home").read()))
print("outside:", attempt(lambda: (open(${JSON.stringify(join(outside, "written.txt"))}, "w").write("x"), "written")[1]))
print("workdir:", attempt(lambda: (open(${JSON.stringify(join(workdir, "inside.txt"))}, "w").write("x"), "written")[1]))
print("network:", attempt(lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=3).recv(100).decode()))
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", ${JSON.stringify(marker)}], start_new_session=True)
print("bridge:", tool("echo", {"text": "through the channel"}))
`;

// The same attempts from a JavaScript cell.
const javascriptProbes = (workdir: string) => `
const fs = require("node:fs");
const net = require("node:net");
const { spawn } = require("node:child_process");
const attempt = (action) => { try { return action(); } catch (error) { return "refused: " + error.code; } };
console.log("secret:", process.env.RUNBOUND_EVAL_SANDBOX_SECRET ?? "unset");
console.log("home:", process.env.HOME);
console.log("home file:", attempt(() => fs.readFileSync(${JSON.stringify(homeFile)}, "utf8")));
console.log("through symlink:", attempt(() => fs.readFileSync("link-to-home", "utf8")));
console.log("outside:", attempt(() => (fs.writeFileSync(${JSON.stringify(join(outside, "written-js.txt"))}, "x"), "written")));
console.log("workdir:", attempt(() => (fs.writeFileSync(${JSON.stringify(join(workdir, "inside-js.txt"))}, "x"), "written")));
console.log("network:", await new Promise((resolve) => {
  const socket = net.connect(${port}, "127.0.0.1");
  socket.on("data", (data) => { resolve(String(data)); socket.destroy(); });
  socket.on("error", (error) => resolve("refused: " + error.code));
}));
spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", ${JSON.stringify(marker)}], { detached: true, stdio: "ignore" }).unref();
console.log("bridge:", (await tool("echo", { text: "through the channel" })).text);
`;

describe.runIf((venv !== undefined && availability.available) || requireReal)(
  "a native Python kernel in the bubblewrap sandbox",
  () => {
    const sandbox = (workdir: string): Placement => {
      if (!availability.available)
        throw new Error(`RUNBOUND_REQUIRE_REAL=1 and bubblewrap is unavailable: ${availability.reason}`);
      return createBubblewrapPlacement({ bwrap: availability.bwrap, version: availability.version, workdir });
    };

    it("on the host, a cell reaches the secret, the home, outside files and the network, and its detached child outlives the kernel", async () => {
      const { workdir, factory, call } = await evalSession(() => hostPlacement);
      const answer = await call(probes(workdir));
      expect(answer).toContain(`secret: ${secret}`);
      expect(answer).toContain("home file: a file in the user's home");
      expect(answer).toContain("through symlink: a file in the user's home");
      expect(answer).toContain("outside: written");
      expect(answer).toContain("network: hello from the host");
      expect(answer).toContain("bridge: echo: through the channel");
      await factory.dispose();
      await expectOutlivedThenEnd();
      await rm(join(outside, "written.txt"), { force: true });
    }, 60_000);

    it("in the sandbox, a cell sees none of it, writes only the workdir, keeps its bridge, and leaves nothing behind", async () => {
      const { workdir, factory, call } = await evalSession(sandbox);
      expectConfined(await call(probes(workdir)), { missing: "FileNotFoundError", network: "ConnectionRefusedError" });
      expect(existsSync(join(outside, "written.txt"))).toBe(false);
      expect(await readFile(join(workdir, "inside.txt"), "utf8")).toBe("x");
      const [python] = await factory.describe(workdir);
      expect(python!.reason).toContain("; in a sandbox (bubblewrap");
      await factory.dispose();
      expect(await untilNoMarked(5_000)).toEqual([]);
    }, 60_000);

    it("a JavaScript cell: on the host it reaches everything, in the sandbox nothing beyond the workdir, and its detached child ends with the kernel", async () => {
      const host = await evalSession(() => hostPlacement);
      const reached = await host.call(javascriptProbes(host.workdir), "javascript");
      expect(reached).toContain(`secret: ${secret}`);
      expect(reached).toContain("home file: a file in the user's home");
      expect(reached).toContain("outside: written");
      expect(reached).toContain("network: hello from the host");
      await host.factory.dispose();
      await expectOutlivedThenEnd();
      await rm(join(outside, "written-js.txt"), { force: true });

      const { workdir, factory, call } = await evalSession(sandbox);
      expectConfined(await call(javascriptProbes(workdir), "javascript"), {
        missing: "ENOENT",
        network: "ECONNREFUSED",
      });
      expect(existsSync(join(outside, "written-js.txt"))).toBe(false);
      await factory.dispose();
      expect(await untilNoMarked(5_000)).toEqual([]);
    }, 60_000);

    it("Pyodide's `import js`: on the host a cell follows a workdir symlink out and signals other processes; in the sandbox it cannot", async () => {
      const attempts = (workdir: string) => `
import js
fs = js.process.getBuiltinModule("fs")
net = js.process.getBuiltinModule("net")
def attempt(action):
    try:
        return action()
    except Exception as error:
        return "refused: " + str(getattr(error, "js_error", error)).split(":")[0]
print("through symlink:", attempt(lambda: fs.readFileSync(${JSON.stringify(join(workdir, "link-to-home"))}, "utf8")))
print("signal:", attempt(lambda: js.process.kill(${process.pid}, 0)))
`;
      const outcomes: Record<string, string> = {};
      for (const [name, placementFor] of [
        ["host", () => hostPlacement],
        ["sandbox", sandbox],
      ] as const) {
        const workdir = fixtureProject();
        await symlink(homeFile, join(workdir, "link-to-home"));
        const kernel = await startPyodideKernel({
          workdir,
          signal: new AbortController().signal,
          placement: placementFor(workdir),
        });
        try {
          const outputs: string[] = [];
          await kernel.execute({
            code: attempts(workdir),
            onOutput: (output) => void outputs.push("text" in output ? output.text : JSON.stringify(output)),
            callTool: () => Promise.reject(new Error("no tools here")),
          });
          outcomes[name] = outputs.join("");
        } finally {
          await kernel.dispose();
        }
      }
      expect(outcomes["host"]).toContain("through symlink: a file in the user's home");
      expect(outcomes["host"]).toContain("signal: True");
      expect(outcomes["sandbox"]).toContain("through symlink: refused");
      expect(outcomes["sandbox"]).not.toContain("a file in the user's home");
      // Its PID namespace holds nothing but the kernel: this test's own process is not there to signal.
      expect(outcomes["sandbox"]).not.toContain("signal: True");
    }, 120_000);

    it("interrupts a program a sandboxed JavaScript cell waits for, and keeps the kernel", async () => {
      const { factory, call } = await evalSession(sandbox, { inactivityTimeoutMs: 1_500 });
      await call("globalThis.kept = 41", "javascript");
      const stopped = await call("require('node:child_process').execSync('sleep 60')", "javascript");
      expect(stopped).toContain("kernel's state is kept");
      expect(await call("kept + 1", "javascript")).toContain("42");
      await factory.dispose();
    }, 60_000);

    it("`%pip install` in a sandbox without the network fails without retrying, saying why and how to allow it", async () => {
      const { factory, call } = await evalSession(sandbox);
      const answer = await call("%pip install runbound-no-such-package-for-the-sandbox-test");
      expect(answer).toContain("this kernel runs in a sandbox without the network");
      expect(answer).toContain("--allow-network");
      // pip's default is five retries with back-off ("Retrying (Retry(total=4, …"); without the network it tries once.
      expect(answer).not.toContain("Retrying");
      await factory.dispose();
    }, 60_000);

    it("interrupts a sandboxed cell without losing the kernel's state, and ends every process with the factory", async () => {
      // A cell silent for 1.5 s is interrupted: SIGINT must reach the interpreter, not the sandbox around it.
      const { factory, call } = await evalSession(sandbox, { inactivityTimeoutMs: 1_500 });
      await call("kept = 41");
      const stopped = await call("import time\ntime.sleep(60)");
      expect(stopped).toContain("it was interrupted and the kernel's state is kept");
      expect(await call("kept + 1")).toContain("42");
      await factory.dispose();
    }, 60_000);
  },
);
