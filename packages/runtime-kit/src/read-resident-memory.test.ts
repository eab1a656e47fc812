import { describe, expect, it } from "vitest";
import { spawnOwnedProcess } from "./owned-process.js";
import { readGroupResidentMemoryKiB, readResidentMemoryKiB } from "./read-resident-memory.js";

describe("resident memory", () => {
  it("reads a live process's VmRSS, and a group's sum over its members", async () => {
    const script =
      'require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); console.log("ready"); setInterval(() => {}, 1000)';
    const owned = await spawnOwnedProcess({ command: process.execPath, args: ["-e", script], cwd: process.cwd() });
    for await (const chunk of owned.stdout) if (String(chunk).includes("ready")) break;
    // Let the grandchild start.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const own = await readResidentMemoryKiB(owned.pid);
    const group = await readGroupResidentMemoryKiB(owned.pid);
    expect(own).toBeGreaterThan(1_000);
    expect(group).toBeGreaterThan(own!);
    await owned.stop({ graceMs: 1_000 });
    expect(await readResidentMemoryKiB(owned.pid)).toBeUndefined();
    expect(await readGroupResidentMemoryKiB(owned.pid)).toBeUndefined();
  });
});
