// Asks the questions in a JSON file on the terminal it runs in, through a real run, and appends
// each result (then its stdin's state) to a JSON-lines file. SIGUSR2 closes the run mid-question.
// It never calls process.exit: it ends only when nothing, its terminal included, is read any more.
import { appendFileSync, readFileSync } from "node:fs";
import { createRun } from "@runbound/runner-adapter";
import { TargetSpace } from "@runbound/tool-kit";
import { AskPort, createAskPlugin, createTerminalAskPort } from "../../dist/index.js";

const [questionsPath, resultsPath] = process.argv.slice(2);
const record = (entry) => appendFileSync(resultsPath, `${JSON.stringify(entry)}\n`);
const run = createRun({ plugins: [createAskPlugin()] });
await run.attach(AskPort, { value: createTerminalAskPort({ input: process.stdin, output: process.stdout }) });
await run.attach(TargetSpace, { value: { id: "terminal", label: "this terminal" } });
const close = () => void run.close({ graceMs: 1_000 });
process.on("SIGUSR2", close);
record({ pid: process.pid, stdinIsTTY: process.stdin.isTTY === true });
for (const input of JSON.parse(readFileSync(questionsPath, "utf8"))) {
  const result = await run.call("ask_user", input);
  record({ isError: result.isError === true, text: result.content[0].text, structured: result.structured });
}
await run.close();
process.off("SIGUSR2", close);
record({ done: true, stdinPaused: process.stdin.isPaused(), dataListeners: process.stdin.listenerCount("data") });
