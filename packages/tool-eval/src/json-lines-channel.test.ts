import { tmpdir } from "node:os";
import { spawnOwnedProcess, type OwnedProcess } from "@runbound/process-kit";
import { listProcessGroup } from "@runbound/process-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLinesChannel } from "./json-lines-channel.js";

// A real child that answers each line it reads: `{"echo": x}` back as `{"echoed": x}`, `{"garbage": text}`
// as the raw text, and `{"split": [a, b]}` as two frames written in one chunk.
const peer = `
const lines = require("node:readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if ("garbage" in message) process.stdout.write(message.garbage + "\\n");
  else if ("split" in message) process.stdout.write(message.split.map((part) => JSON.stringify({ part })).join("\\n") + "\\n");
  else process.stdout.write(JSON.stringify({ echoed: message.echo }) + "\\r\\n");
});
`;

const children: OwnedProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    await child.stop({ graceMs: 0 });
    expect((await listProcessGroup(child.pid)).filter((row) => row.state !== "Z")).toEqual([]);
  }
});

async function startPeer(): Promise<OwnedProcess> {
  const child = await spawnOwnedProcess({ command: process.execPath, args: ["-e", peer], cwd: tmpdir(), env: {} });
  children.push(child);
  return child;
}

function nextMessages(channel: ReturnType<typeof jsonLinesChannel<unknown, object>>, count: number): Promise<unknown[]> {
  const received: unknown[] = [];
  return new Promise((resolve) =>
    channel.onMessage((message) => {
      received.push(message);
      if (received.length === count) resolve(received);
    }),
  );
}

describe("jsonLinesChannel over a real child's pipes", () => {
  it("sends one JSON object per line and hands back each line the child writes, in order, CRLF or not", async () => {
    const channel = jsonLinesChannel<unknown, object>(await startPeer());
    const received = nextMessages(channel, 4);
    channel.send({ echo: "a line\nwith a newline inside" });
    channel.send({ split: [1, 2] });
    channel.send({ echo: { nested: [true, null] } });
    expect(await received).toEqual([{ echoed: "a line\nwith a newline inside" }, { part: 1 }, { part: 2 }, { echoed: { nested: [true, null] } }]);
  });

  it("stops the child at once when a line is not JSON, and delivers nothing for it", async () => {
    const child = await startPeer();
    const channel = jsonLinesChannel<unknown, object>(child);
    const received: unknown[] = [];
    channel.onMessage((message) => received.push(message));
    channel.send({ echo: 1 });
    channel.send({ garbage: "not json at all" });
    // stop({ graceMs: 0 }): SIGTERM, then SIGKILL at once; either may be the one that ends it.
    expect(["SIGTERM", "SIGKILL"]).toContain((await child.exit).signal);
    expect(received).toEqual([{ echoed: 1 }]);
  });

  it("delivers nothing more after close", async () => {
    const child = await startPeer();
    const channel = jsonLinesChannel<unknown, object>(child);
    const received: unknown[] = [];
    channel.onMessage((message) => received.push(message));
    channel.close();
    // The child's answer has arrived once this listener, added after the channel's, sees it (closing
    // paused the stream, so it is resumed for this listener).
    const answered = new Promise((resolve) => child.stdout.once("data", resolve));
    child.stdout.resume();
    channel.send({ echo: "after close" });
    await answered;
    expect(received).toEqual([]);
    expect(child.exited()).toBeUndefined();
  });
});
