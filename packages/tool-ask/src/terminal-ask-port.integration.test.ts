import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TmuxSession, tmuxAvailable } from "./test-support/tmux-session.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "terminal-ask.mjs");
const sessions: TmuxSession[] = [];
const directories: string[] = [];

afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const options = [{ label: "Postgres", description: "The one in production." }, { label: "SQLite" }, { label: "Redis" }];

/** Run the fixture in a real terminal with these ask_user inputs; its results arrive in a JSON-lines file. */
function askInTerminal(inputs: unknown[]) {
  const directory = mkdtempSync(join(tmpdir(), "runbound-ask-terminal-"));
  directories.push(directory);
  const questions = join(directory, "questions.json");
  const results = join(directory, "results.jsonl");
  writeFileSync(questions, JSON.stringify(inputs));
  const errors = join(directory, "stderr.log");
  const session = new TmuxSession(
    `node '${fixture}' '${questions}' '${results}' 2>'${errors}'; echo "{\\"exit\\":$?}" >> '${results}'`,
  );
  sessions.push(session);
  const entries = (): Array<Record<string, unknown>> =>
    existsSync(results)
      ? readFileSync(results, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  const stderr = (): string => (existsSync(errors) ? readFileSync(errors, "utf8") : "");
  const waitForScreen = (text: string) =>
    vi.waitFor(() => expect(session.screen(), stderr()).toContain(text), { timeout: 20_000, interval: 100 });
  const waitForEntries = (count: number) =>
    vi.waitFor(() => expect(entries().length).toBeGreaterThanOrEqual(count), { timeout: 20_000, interval: 100 });
  return { session, entries, waitForScreen, waitForEntries };
}

describe.runIf(tmuxAvailable())("createTerminalAskPort in a real terminal", () => {
  it("re-asks after an invalid reply, takes free text and `1,3`, skips on Ctrl-D, then fails at once with no operator", async () => {
    const terminal = askInTerminal([
      { question: "Which database?", options, allow_free_text: false, multi_select: false },
      { question: "Which version?", options, allow_free_text: true, multi_select: false },
      { question: "Which stores?", options, allow_free_text: false, multi_select: true },
      { question: "Which region?", options, allow_free_text: true, multi_select: false },
      { question: "Which zone?", options, allow_free_text: true, multi_select: false },
    ]);
    await terminal.waitForEntries(1);
    expect(terminal.entries()[0]).toMatchObject({ stdinIsTTY: true });
    await terminal.waitForScreen("Question: Which database?");
    expect(terminal.session.screen()).toContain(
      "  1) Postgres — The one in production.\n  2) SQLite\n  3) Redis\nReply with a number (1–3) or the option's label; `skip` to skip.\n>",
    );
    terminal.session.typeLine("7");
    await terminal.waitForScreen("There is no option `7`; the options are 1–3. Try again.");
    terminal.session.typeLine("sqlite");
    await terminal.waitForEntries(2);
    await terminal.waitForScreen("Question: Which version?");
    terminal.session.typeLine("MySQL 8, please");
    await terminal.waitForScreen("Question: Which stores?");
    terminal.session.typeLine("1,3");
    await terminal.waitForScreen("Question: Which region?");
    terminal.session.press("C-d");
    await terminal.waitForEntries(7);
    const [, database, version, stores, region, zone, done] = terminal.entries();
    expect(database).toMatchObject({ isError: false, text: "The operator chose 2) SQLite." });
    expect(version).toMatchObject({ isError: false, text: 'The operator wrote: "MySQL 8, please".' });
    expect(stores).toMatchObject({
      isError: false,
      structured: {
        status: "answered",
        choices: [
          { number: 1, label: "Postgres" },
          { number: 3, label: "Redis" },
        ],
      },
    });
    expect(region).toMatchObject({
      isError: false,
      structured: { status: "skipped", via: "the operator ended the input (Ctrl-D)" },
    });
    expect(zone).toMatchObject({ isError: true, structured: { error: { code: "no_operator" } } });
    expect(terminal.session.screen()).not.toContain("Question: Which zone?");
    expect(done).toEqual({ done: true, stdinPaused: true, dataListeners: 0 });
    await terminal.waitForEntries(8);
    expect(terminal.entries()[7]).toEqual({ exit: 0 });
  });

  it("withdraws the shown card when the run closes, stops reading the terminal, and lets the process end by itself", async () => {
    const terminal = askInTerminal([
      {
        question: "Deploy now?",
        options: [{ label: "Yes" }, { label: "No" }],
        allow_free_text: false,
        multi_select: false,
      },
    ]);
    await terminal.waitForScreen("Question: Deploy now?");
    const { pid } = terminal.entries()[0] as { pid: number };
    process.kill(pid, "SIGUSR2");
    await terminal.waitForEntries(2);
    expect(terminal.entries()[1]).toMatchObject({ isError: true, structured: { error: { code: "cancelled" } } });
    await terminal.waitForScreen("(Withdrawn:");
    await terminal.waitForEntries(4);
    expect(terminal.entries().slice(2)).toEqual([{ done: true, stdinPaused: true, dataListeners: 0 }, { exit: 0 }]);
  });
});
