import { createRun, type Run } from "@runbound/runner-adapter";
import { TargetSpace } from "@runbound/tool-kit";
import { AskPort } from "../ask-port.js";
import { createInMemoryAskPort, type InMemoryAskPort, type PendingCard } from "../in-memory-ask-port.js";
import { createAskPlugin } from "../plugin.js";

/** A real run with `ask_user`, an in-memory port and a target space attached. */
export async function askRun(timeoutMs?: number): Promise<{ run: Run; port: InMemoryAskPort }> {
  const run = createRun({ plugins: [createAskPlugin(timeoutMs === undefined ? {} : { timeoutMs })] });
  const port = createInMemoryAskPort();
  await run.attach(AskPort, { value: port });
  await run.attach(TargetSpace, { value: { id: "ui", label: "the test UI" } });
  return { run, port };
}

/** The next card the port shows. */
export function nextCard(port: InMemoryAskPort): Promise<PendingCard> {
  return new Promise((resolve) => {
    const stop = port.subscribe((event) => {
      if (event.type !== "added") return;
      stop();
      resolve(event.pending);
    });
  });
}
