import { describe, expect, it } from "vitest";
import { SerialQueue } from "./serial-queue.js";

function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("SerialQueue", () => {
  it("runs tasks of one key one after another, in order, each answering its own caller", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run("k", async () => {
      log.push("a start");
      await first.opened;
      log.push("a end");
      return "a";
    });
    const b = queue.run("k", async () => {
      log.push("b start");
      return "b";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(["a start"]);
    first.open();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(log).toEqual(["a start", "a end", "b start"]);
  });

  it("lets tasks of different keys overlap", async () => {
    const queue = new SerialQueue();
    const held = gate();
    const slow = queue.run("one", () => held.opened.then(() => "slow"));
    await expect(queue.run("two", async () => "fast")).resolves.toBe("fast");
    held.open();
    await expect(slow).resolves.toBe("slow");
  });

  it("runs the next task after one that failed, and gives the failure to its own caller", async () => {
    const queue = new SerialQueue();
    const failed = queue.run("k", async () => Promise.reject(new Error("boom")));
    const next = queue.run("k", async () => "next");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("next");
  });

  it("still queues behind a running task after an earlier one of its key finished", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    await queue.run("k", async () => undefined);
    const held = gate();
    const second = queue.run("k", async () => {
      log.push("second start");
      await held.opened;
      log.push("second end");
    });
    // Let the first task's cleanup run while the second holds the key.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const third = queue.run("k", async () => void log.push("third start"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(["second start"]);
    held.open();
    await Promise.all([second, third]);
    expect(log).toEqual(["second start", "second end", "third start"]);
  });

  it("forgets a key once its tasks are done, so it holds nothing for keys no longer used", async () => {
    const queue = new SerialQueue();
    await Promise.all([queue.run("a", async () => 1), queue.run("a", async () => 2), queue.run("b", async () => 3)]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.keys).toBe(0);
  });
});
