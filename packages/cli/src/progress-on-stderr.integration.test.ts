import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./__fixtures__/run-cli.js";
import { runCliInTerminal } from "./__fixtures__/run-cli-in-terminal.js";

const plugin = join(fileURLToPath(new URL("./__fixtures__/", import.meta.url)), "progress-plugin.mjs");
let project: string | undefined;
afterEach(async () => {
  if (project !== undefined) await rm(project, { recursive: true, force: true });
  project = undefined;
});

describe("progress of a call from the shell", () => {
  it("`call` at a terminal shows each progress notice before the answer", async () => {
    project = await mkdtemp(join(tmpdir(), "runbound-progress-"));
    const { code, screen } = await runCliInTerminal(["call", "count_to", '{"n":3}', "--plugin", plugin, "-C", project], []);
    expect(code).toBe(0);
    expect(screen).toContain("runbound: count_to: counting (1/3)\n");
    expect(screen).toContain("runbound: count_to: counting (3/3)\n");
    expect(screen.indexOf("counting (3/3)")).toBeLessThan(screen.indexOf("counted to 3"));
  });

  it("`call` and `session` piped keep stderr for problems: no progress lines, the answer alone on stdout", async () => {
    project = await mkdtemp(join(tmpdir(), "runbound-progress-"));
    const called = await runCli(["call", "count_to", '{"n":3}', "--plugin", plugin, "-C", project]);
    expect(called).toMatchObject({ code: 0, stdout: "counted to 3\n", stderr: "" });
    const session = await runCli(["session", "--plugin", plugin, "-C", project], { stdin: '{"id":1,"tool":"count_to","input":{"n":2}}\n' });
    expect(session.code).toBe(0);
    expect(session.stderr).toBe("");
    const lines = session.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "counted to 2" }] } });
  });
});
