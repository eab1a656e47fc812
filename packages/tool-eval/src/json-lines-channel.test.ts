import { tmpdir } from "node:os";
import { spawnOwnedProcess, type OwnedProcess } from "@runbound/runtime-kit";
import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createChannelSecret, jsonLinesChannel, type JsonLinesChannel } from "./json-lines-channel.js";

// A real child that answers each line it reads, each frame after the secret of the first line:
// `{"echo": x}` back as `{"echoed": x}`, `{"split": [a, b]}` as two frames written in one chunk,
// `{"garbage": text}` as a damaged frame (the secret, then text that is not JSON), and `{"foreign": text}`
// as text without the secret (what a cell writing to the channel's descriptor leaves there).
const peer = `
let marker = "";
const lines = require("node:readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "channel") marker = message.secret + " ";
  else if ("garbage" in message) process.stdout.write(marker + message.garbage + "\\n");
  else if ("foreign" in message) process.stdout.write(message.foreign);
  else if ("split" in message) process.stdout.write(message.split.map((part) => marker + JSON.stringify({ part })).join("\\n") + "\\n");
  else process.stdout.write(marker + JSON.stringify({ echoed: message.echo }) + "\\r\\n");
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

function nextMessages(channel: JsonLinesChannel<unknown, object>, count: number): Promise<unknown[]> {
  const received: unknown[] = [];
  return new Promise((resolve) =>
    channel.onMessage((message) => {
      received.push(message);
      if (received.length === count) resolve(received);
    }),
  );
}

const foreignTexts: string[] = [];

function open(child: OwnedProcess): JsonLinesChannel<unknown, object> {
  return jsonLinesChannel<unknown, object>(child, {
    secret: createChannelSecret(),
    onForeignText: (text) => foreignTexts.push(text),
  });
}

describe("jsonLinesChannel over a real child's pipes", () => {
  it("sends one JSON object per line and hands back each line the child writes, in order, CRLF or not", async () => {
    const channel = open(await startPeer());
    const received = nextMessages(channel, 4);
    channel.send({ echo: "a line\nwith a newline inside" });
    channel.send({ split: [1, 2] });
    channel.send({ echo: { nested: [true, null] } });
    expect(await received).toEqual([
      { echoed: "a line\nwith a newline inside" },
      { part: 1 },
      { part: 2 },
      { echoed: { nested: [true, null] } },
    ]);
  });

  it("hands text without the secret to onForeignText, never as a frame, even a frame glued after it", async () => {
    foreignTexts.length = 0;
    const channel = open(await startPeer());
    const received = nextMessages(channel, 2);
    channel.send({ foreign: `${JSON.stringify({ echoed: "forged" })}\n` });
    channel.send({ foreign: "a partial line, " });
    channel.send({ echo: "real" });
    channel.send({ echo: "last" });
    expect(await received).toEqual([{ echoed: "real" }, { echoed: "last" }]);
    expect(foreignTexts).toEqual([`${JSON.stringify({ echoed: "forged" })}\n`, "a partial line, "]);
  });

  it("stops the child at once when a frame is damaged (not JSON after the secret), and delivers nothing for it", async () => {
    const child = await startPeer();
    const channel = open(child);
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
    const channel = open(child);
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
