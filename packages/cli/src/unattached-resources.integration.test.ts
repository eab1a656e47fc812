import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./__fixtures__/run-cli.js";

const plugin = join(fileURLToPath(new URL("./__fixtures__/", import.meta.url)), "failing-provider-plugin.mjs");
let project: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "runbound-unattached-"));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("a call to a tool whose resource is not attached says why", () => {
  it("names the plugin provider's failure in the call's own answer", async () => {
    const { code, stdout } = await runCli(["call", "blame_line", "{}", "--plugin", plugin, "-C", project]);
    expect(code).toBe(1);
    expect(stdout).toContain("Error (unavailable): Tool `blame_line` needs `fixture.repository`");
    expect(stdout).toContain(
      "`fixture.repository` is not attached because its provider failed: `git rev-parse` failed: not a git repository.",
    );
  });

  it("says how to turn vibe mode on, and why ask_user has no one to ask", async () => {
    const vibe = await runCli(["call", "vibe_list", "{}", "-C", project]);
    expect(vibe.stdout).toContain(
      "`vibe.roster` and `run.vibe_mode` are not attached because vibe mode is off. Start runbound with --vibe",
    );
    const ask = await runCli([
      "call",
      "ask_user",
      JSON.stringify({ question: "Which?", options: [{ label: "a" }, { label: "b" }] }),
      "-C",
      project,
    ]);
    expect(ask.stdout).toContain(
      "not attached because no human to ask. `runbound call` asks on its terminal when stdin and stdout are both a TTY",
    );
  });
});
