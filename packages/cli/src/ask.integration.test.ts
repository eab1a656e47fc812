import { mkdtemp, readFile, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInTerminal } from "./__fixtures__/run-cli-in-terminal.js";
import { runCli } from "./__fixtures__/run-cli.js";

const question = JSON.stringify({
  question: "Which database should the tests use?",
  options: [{ label: "sqlite" }, { label: "postgres" }],
  allow_free_text: false,
  multi_select: false,
});

describe("runbound call at a terminal", () => {
  it("asks ask_user's question on the terminal, re-asks after an invalid reply, and prints the answer", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-ask-tty-")));
    const { code, screen } = await runCliInTerminal(["call", "ask_user", question, "-C", project], ["7", "postgres"]);
    expect(code).toBe(0);
    expect(screen).toContain("Which database should the tests use?");
    expect(screen).toMatch(/1\) sqlite\n\s*2\) postgres/);
    // 7 is not an option: the card is asked again, then the label is accepted.
    expect(screen.split("\n> ").length - 1).toBe(2);
    expect(screen).toContain("2) postgres");
  });

  it("asks --ask's permission prompts on the terminal with the same card", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-ask-tty-write-")));
    const allowed = await runCliInTerminal(
      ["call", "write", '{"path":"a.txt","content":"yes"}', "--ask", "write", "-C", project],
      ["1"],
    );
    expect(allowed.screen).toContain("May `write` (write) run");
    expect(allowed.code).toBe(0);
    expect(await readFile(join(project, "a.txt"), "utf8")).toBe("yes");
    const denied = await runCliInTerminal(
      ["call", "write", '{"path":"b.txt","content":"no"}', "--ask", "write", "-C", project],
      ["3"],
    );
    expect(denied.code).toBe(1);
    expect(denied.screen).toContain("was denied");
    await expect(readFile(join(project, "b.txt"), "utf8")).rejects.toThrow();
  });

  it("offers no ask_user when stdin is piped, and denies what --ask names instead of waiting", async () => {
    const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-ask-pipe-")));
    const asked = await runCli(["call", "ask_user", question, "-C", project]);
    expect(asked.code).toBe(1);
    // Fails at once, naming what is missing: no one can answer, so it never blocks.
    expect(asked.stdout).toContain("Tool `ask_user` needs `ask.port`");
    const write = await runCli(["call", "write", '{"path":"c.txt","content":"no"}', "--ask", "write", "-C", project]);
    expect(write.code).toBe(1);
    expect(write.stdout).toContain("was denied");
  });
});
