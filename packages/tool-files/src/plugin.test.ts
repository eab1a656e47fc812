import { mkdtemp, readFile, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRun } from "@runbound/runner-adapter";
import { resultText, Workdir } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import plugin, { applyPatchTool, editTool, fileToolsPlugin, PACKAGE_VERSION, readTool, writeTool } from "./index.js";

describe("fileToolsPlugin", () => {
  it("is the package's default export, named after the package, with the four tools and their tiers", () => {
    expect(plugin).toBe(fileToolsPlugin);
    expect([plugin.name, plugin.version]).toEqual(["@runbound/tool-files", PACKAGE_VERSION]);
    expect(plugin.tools).toEqual([readTool, writeTool, editTool, applyPatchTool]);
    expect(plugin.tools.map((tool) => [tool.name, tool.tier])).toEqual([
      ["read", "read"],
      ["write", "write"],
      ["edit", "write"],
      ["apply_patch", "write"],
    ]);
  });

  it("needs only the run's workdir: no resource of its own, so a host attaches Workdir and nothing else", async () => {
    expect(plugin.resourceProviders).toEqual([]);
    expect(plugin.tools.map((tool) => tool.requires)).toEqual(plugin.tools.map(() => [Workdir]));
    const workdir = await realpath(await mkdtemp(join(tmpdir(), "runbound-files-host-")));
    const run = createRun({ plugins: [plugin] });
    await run.attach(Workdir, { value: workdir });
    try {
      expect(resultText(await run.call("write", { path: "notes/a.txt", content: "hello\n" }))).toBe(
        "Created `notes/a.txt` (6 bytes).",
      );
      expect(resultText(await run.call("read", { path: "notes/a.txt" }))).toBe("1\thello");
      expect(await readFile(join(workdir, "notes", "a.txt"), "utf8")).toBe("hello\n");
    } finally {
      await run.close();
    }
  });
});
