import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBubblewrapPlacement } from "./bubblewrap-placement.js";
import { detectBubblewrap } from "./detect-bubblewrap.js";
import { spawnOwnedProcess } from "./owned-process.js";
import { hostPlacement, type Placement } from "./placement.js";
import { listProcessesByLastArgument, untilNoProcessWithLastArgument } from "./testing/index.js";

// Issue 24: what a program placed in the sandbox can reach, tried as an attacker would, and the same
// attempts on the host, which succeed (so each check can fail).
const availability = await detectBubblewrap();
const requireReal = process.env["RUNBOUND_REQUIRE_REAL"] === "1";
const marker = `runbound-sandbox-test-${randomUUID()}`;
const secret = `secret-${randomUUID()}`;

let workdir: string;
let outside: string;
let homeFile: string;
let listener: Server;
let port: number;

beforeAll(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), "runbound-sandbox-work-")));
  outside = await realpath(await mkdtemp(join(tmpdir(), "runbound-sandbox-outside-")));
  homeFile = join(homedir(), `.${marker}.txt`);
  await writeFile(homeFile, "a file in the user's home\n");
  await symlink(homeFile, join(workdir, "link-to-home"));
  listener = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  listener.close();
  await rm(homeFile, { force: true });
  await rm(workdir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

// Every attempt, reported as JSON: what it read, whether it wrote, whether it connected; and a
// detached child (its own session) that would outlive the program, named by the marker.
const attacker = `
const fs = require("node:fs");
const net = require("node:net");
const { spawn } = require("node:child_process");
const attempt = (action) => { try { return action(); } catch (error) { return "refused: " + error.code; } };
const report = {
  secret: process.env.RUNBOUND_SANDBOX_TEST_SECRET ?? "unset",
  home: process.env.HOME,
  homeFile: attempt(() => fs.readFileSync(process.argv[1], "utf8").trim()),
  throughSymlink: attempt(() => fs.readFileSync("link-to-home", "utf8").trim()),
  wroteOutside: attempt(() => (fs.writeFileSync(process.argv[2] + "/written.txt", "x"), "written")),
  wroteWorkdir: attempt(() => (fs.writeFileSync("written-inside.txt", "x"), "written")),
};
const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", process.argv[4]], { detached: true, stdio: "ignore" });
child.unref();
const socket = net.connect(Number(process.argv[3]), "127.0.0.1");
socket.setTimeout(3000);
const done = (network) => { console.log(JSON.stringify({ ...report, network })); };
socket.on("data", (data) => { done(String(data).trim()); socket.destroy(); });
socket.on("error", (error) => done("refused: " + error.code));
socket.on("timeout", () => { done("refused: timeout"); socket.destroy(); });
`;

const markedProcesses = () => listProcessesByLastArgument(marker);
const untilGone = (budgetMs: number) => untilNoProcessWithLastArgument(marker, budgetMs);

async function attack(placement: Placement): Promise<Record<string, string>> {
  const owned = await spawnOwnedProcess({
    command: process.execPath,
    args: ["-e", attacker, homeFile, outside, String(port), marker],
    cwd: workdir,
    env: { ...process.env, RUNBOUND_SANDBOX_TEST_SECRET: secret },
    placement,
  });
  let output = "";
  owned.stdout.setEncoding("utf8");
  owned.stdout.on("data", (chunk: string) => (output += chunk));
  const exit = await owned.waitForExit(20_000);
  expect(exit, owned.stderrTail().join("\n")).toEqual({ code: 0, signal: null });
  return JSON.parse(output.trim()) as Record<string, string>;
}

describe.runIf(availability.available || requireReal)("a program in the bubblewrap sandbox", () => {
  const sandbox = (): Placement => {
    if (!availability.available)
      throw new Error(`RUNBOUND_REQUIRE_REAL=1 and bubblewrap is unavailable: ${availability.reason}`);
    return createBubblewrapPlacement({ bwrap: availability.bwrap, version: availability.version, workdir });
  };

  it("on the host, every attempt succeeds (the checks below can fail)", async () => {
    const report = await attack(hostPlacement);
    expect(report).toMatchObject({
      secret,
      homeFile: "a file in the user's home",
      throughSymlink: "a file in the user's home",
      wroteOutside: "written",
      wroteWorkdir: "written",
      network: "hello from the host",
    });
    expect(existsSync(join(outside, "written.txt"))).toBe(true);
    // The detached child outlived the program.
    expect(await markedProcesses()).toHaveLength(1);
    for (const pid of await markedProcesses()) process.kill(pid, "SIGKILL");
    expect(await untilGone(5_000)).toEqual([]);
    await rm(join(outside, "written.txt"), { force: true });
  }, 30_000);

  it("sees no secret, no home, nothing outside the workdir, no network, and leaves nothing behind", async () => {
    const report = await attack(sandbox());
    expect(report).toEqual({
      secret: "unset",
      home: "/tmp/home",
      homeFile: "refused: ENOENT",
      throughSymlink: "refused: ENOENT",
      wroteOutside: "refused: ENOENT",
      wroteWorkdir: "written",
      network: "refused: ECONNREFUSED",
    });
    expect(existsSync(join(outside, "written.txt"))).toBe(false);
    expect(await readFile(join(workdir, "written-inside.txt"), "utf8")).toBe("x");
    // Its detached child went with it: the PID namespace ended when the program did.
    expect(await untilGone(5_000)).toEqual([]);
  }, 30_000);

  it("dies, with everything it started, when the process that started it is killed", async () => {
    const placed = sandbox().place({
      command: process.execPath,
      args: [
        "-e",
        `require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "${marker}"], { detached: true, stdio: "ignore" }).unref(); setInterval(() => {}, 1000);`,
      ],
      cwd: workdir,
      env: process.env,
    });
    // An owner that starts the sandbox and is then SIGKILLed: no exit hook of its own runs.
    const owner = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").spawn(${JSON.stringify(placed.command)}, ${JSON.stringify(placed.args)}, { detached: true, stdio: "ignore" }); c.unref(); setInterval(() => {}, 1000);`,
      ],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    while ((await markedProcesses()).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await markedProcesses()).toHaveLength(1);
    owner.kill("SIGKILL");
    expect(await untilGone(5_000)).toEqual([]);
  }, 30_000);

  it("keeps a kernel's channel: descriptors it is given pass through", async () => {
    const script = `const s = new (require("node:net").Socket)({ fd: 3, readable: true, writable: true }); s.once("data", (d) => s.end("echo " + d));`;
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", script],
      cwd: workdir,
      placement: sandbox(),
      extraChannels: 1,
    });
    owned.channels[0]!.write("ping");
    let answer = "";
    for await (const chunk of owned.channels[0]!) answer += String(chunk);
    expect(answer).toBe("echo ping");
    expect(await owned.waitForExit(5_000)).toEqual({ code: 0, signal: null });
  });

  it("names the program inside the sandbox, so SIGINT reaches it and not the sandbox", async () => {
    const script = `process.on("SIGINT", () => { console.log("interrupted"); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000);`;
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", script],
      cwd: workdir,
      placement: sandbox(),
    });
    let output = "";
    owned.stdout.setEncoding("utf8");
    owned.stdout.on("data", (chunk: string) => (output += chunk));
    while (!output.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 20));
    const program = await owned.programPid();
    expect(program).not.toBe(owned.pid);
    expect(await readFile(`/proc/${program}/comm`, "utf8")).toBe("node\n");
    process.kill(program!, "SIGINT");
    expect(await owned.waitForExit(5_000)).toEqual({ code: 0, signal: null });
    expect(output).toBe("ready\ninterrupted\n");
    expect(await owned.programPid()).toBeUndefined();
  });

  it("writes the request's writable paths, and only reads its read-only ones", async () => {
    const writable = await realpath(await mkdtemp(join(tmpdir(), "runbound-sandbox-writable-")));
    const readable = await realpath(await mkdtemp(join(tmpdir(), "runbound-sandbox-readable-")));
    await writeFile(join(readable, "given.txt"), "read me");
    try {
      const script = `
const fs = require("node:fs");
const attempt = (action) => { try { return action(); } catch (error) { return "refused: " + error.code; } };
console.log(JSON.stringify({
  writable: attempt(() => (fs.writeFileSync(process.argv[1] + "/out.txt", "x"), "written")),
  readable: attempt(() => fs.readFileSync(process.argv[2] + "/given.txt", "utf8")),
  readableWritten: attempt(() => (fs.writeFileSync(process.argv[2] + "/out.txt", "x"), "written")),
}));`;
      const owned = await spawnOwnedProcess({
        command: process.execPath,
        args: ["-e", script, writable, readable],
        cwd: workdir,
        placement: sandbox(),
        readOnlyPaths: [readable],
        writablePaths: [writable],
      });
      let output = "";
      for await (const chunk of owned.stdout) output += String(chunk);
      expect(JSON.parse(output)).toEqual({
        writable: "written",
        readable: "read me",
        readableWritten: "refused: EROFS",
      });
      expect(await readFile(join(writable, "out.txt"), "utf8")).toBe("x");
      expect(existsSync(join(readable, "out.txt"))).toBe(false);
    } finally {
      await rm(writable, { recursive: true, force: true });
      await rm(readable, { recursive: true, force: true });
    }
  });

  it("refuses a program named without a path, saying why", () => {
    expect(() => sandbox().place({ command: "node", args: [], cwd: workdir, env: {} })).toThrow(
      "A sandboxed program needs an absolute path, not `node`",
    );
  });

  it("passes the resource's own variables and the host's named ones, and nothing else", async () => {
    const placement = createBubblewrapPlacement({
      bwrap: (availability as { bwrap: string }).bwrap,
      version: "test",
      workdir,
      passEnv: ["RUNBOUND_NAMED"],
    });
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", "console.log(JSON.stringify(Object.keys(process.env).sort()))"],
      cwd: workdir,
      env: {
        PATH: process.env["PATH"],
        RUNBOUND_NAMED: "1",
        RUNBOUND_OWN: "2",
        RUNBOUND_OTHER: "3",
        AWS_SECRET_ACCESS_KEY: "4",
      },
      ownEnv: ["RUNBOUND_OWN"],
      placement,
    });
    let output = "";
    for await (const chunk of owned.stdout) output += String(chunk);
    // PWD is bubblewrap's own, for the working directory it starts the program in.
    expect(JSON.parse(output)).toEqual(["HOME", "PATH", "PWD", "RUNBOUND_NAMED", "RUNBOUND_OWN", "TMPDIR"]);
  });
});

describe("detectBubblewrap", () => {
  it("says why when bwrap is not on PATH", async () => {
    expect(await detectBubblewrap({ PATH: "/nonexistent" })).toEqual({
      available: false,
      reason: "bubblewrap (`bwrap`) is not on PATH; install it (Debian and Ubuntu: apt-get install bubblewrap)",
    });
  });
});
