import { describe, expect, it } from "vitest";
import { spawnOwnedProcess } from "./owned-process.js";
import { listProcesses, listProcessGroup } from "./testing/index.js";

// A parent that starts a grandchild ignoring SIGTERM, prints both pids, then idles (optionally ignoring SIGTERM itself).
const treeScript = (parentIgnoresTerm: boolean): string => `
const { spawn } = require("node:child_process");
${parentIgnoresTerm ? 'process.on("SIGTERM", () => {});' : ""}
const grandchild = spawn(process.execPath, ["-e", 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: "ignore" });
console.log(JSON.stringify({ parent: process.pid, grandchild: grandchild.pid }));
setInterval(() => {}, 1000);
`;

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes("\n")) return text.split("\n")[0]!;
  }
  return text;
}

async function living(pgid: number): Promise<string[]> {
  return (await listProcessGroup(pgid))
    .filter((row) => row.state !== "Z")
    .map((row) => `${row.pid} ${row.command} ${row.state}`);
}

describe("spawnOwnedProcess", () => {
  it("starts the program as the leader of its own process group", async () => {
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
      cwd: process.cwd(),
    });
    const row = (await listProcesses()).find((candidate) => candidate.pid === owned.pid);
    expect(row?.pgid).toBe(owned.pid);
    expect(row?.ppid).toBe(process.pid);
    await owned.stop({ graceMs: 1_000 });
  });

  it("stop ends the whole group: SIGTERM, then SIGKILL for members that ignore it", async () => {
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", treeScript(true)],
      cwd: process.cwd(),
    });
    const pids = JSON.parse(await firstLine(owned.stdout)) as { parent: number; grandchild: number };
    expect(pids.parent).toBe(owned.pid);
    expect((await living(owned.pid)).length).toBe(2);
    const exit = await owned.stop({ graceMs: 200 });
    expect(exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(await living(owned.pid)).toEqual([]);
  });

  it("a leader that stops on SIGTERM ends with SIGTERM, and its helpers go with it", async () => {
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", treeScript(false)],
      cwd: process.cwd(),
    });
    await firstLine(owned.stdout);
    const exit = await owned.stop({ graceMs: 5_000 });
    expect(exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(await living(owned.pid)).toEqual([]);
  });

  it("when the leader exits by itself, what it left in its group is killed", async () => {
    const script = `${treeScript(false)}\nsetTimeout(() => process.exit(7), 100);`;
    const owned = await spawnOwnedProcess({ command: process.execPath, args: ["-e", script], cwd: process.cwd() });
    const pids = JSON.parse(await firstLine(owned.stdout)) as { grandchild: number };
    expect(await owned.exit).toEqual({ code: 7, signal: null });
    expect(owned.exited()).toEqual({ code: 7, signal: null });
    // `exit` settles only once the group is gone, so no polling is needed here.
    expect((await listProcesses()).filter((row) => row.pid === pids.grandchild && row.state !== "Z")).toEqual([]);
    expect(await living(owned.pid)).toEqual([]);
    // stop() after a natural exit answers the same exit and signals nothing.
    expect(await owned.stop()).toEqual({ code: 7, signal: null });
  });

  it("keeps the last stderr lines", async () => {
    const script = 'for (let i = 1; i <= 30; i++) console.error("line " + i); process.exit(1)';
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", script],
      cwd: process.cwd(),
      stderrLines: 3,
    });
    await owned.exit;
    // stderr may still be draining after the exit event.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(owned.stderrTail()).toEqual(["line 28", "line 29", "line 30"]);
  });

  it("waitForExit answers undefined while the process still runs, and the exit once it ended", async () => {
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", "setTimeout(() => {}, 300)"],
      cwd: process.cwd(),
    });
    expect(await owned.waitForExit(20)).toBeUndefined();
    expect(owned.exited()).toBeUndefined();
    expect(await owned.waitForExit(5_000)).toEqual({ code: 0, signal: null });
  });

  it("extra channels are two-way file descriptors 3, 4, … in the child, and its own children do not inherit them", async () => {
    // The child echoes on fd 3 what it reads there, and lists what a grandchild's descriptors point at.
    const script = `
const fs = require("node:fs");
const net = require("node:net");
const { execFileSync } = require("node:child_process");
const own = fs.readlinkSync("/proc/self/fd/3");
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
channel.once("data", (data) => {
  const listing = "const fs = require('node:fs'); console.log(JSON.stringify(fs.readdirSync('/proc/self/fd').map((fd) => { try { return fs.readlinkSync('/proc/self/fd/' + fd); } catch { return ''; } })))";
  const grandchild = JSON.parse(execFileSync(process.execPath, ["-e", listing]).toString());
  channel.end(JSON.stringify({ echo: String(data), own, grandchild }));
});`;
    const owned = await spawnOwnedProcess({
      command: process.execPath,
      args: ["-e", script],
      cwd: process.cwd(),
      extraChannels: 1,
    });
    expect(owned.channels).toHaveLength(1);
    const [channel] = owned.channels;
    channel!.write("ping");
    let answer = "";
    for await (const chunk of channel!) answer += String(chunk);
    const { echo, own, grandchild } = JSON.parse(answer) as { echo: string; own: string; grandchild: string[] };
    expect(echo).toBe("ping");
    expect(own).toMatch(/^socket:\[\d+\]$/);
    expect(grandchild.length).toBeGreaterThan(2);
    expect(grandchild).not.toContain(own);
    expect(await owned.waitForExit(5_000)).toEqual({ code: 0, signal: null });
  });

  it("rejects with the spawn error for a missing program", async () => {
    await expect(
      spawnOwnedProcess({ command: "/nonexistent/runbound-no-such-program", cwd: process.cwd() }),
    ).rejects.toMatchObject({ code: "ENOENT" });
  });
});
