import { describe, expect, it } from "vitest";
import { describeBound, RequestWatchdog, type HungRequest } from "./request-watchdog.js";

const boundMs = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function watchdog() {
  const hung: Array<HungRequest & { afterMs: number }> = [];
  const started = Date.now();
  const dog = new RequestWatchdog(boundMs, (request) => hung.push({ ...request, afterMs: Date.now() - started }));
  return { dog, hung, started };
}

describe("RequestWatchdog (real timers)", () => {
  it("reports a request left unanswered, once, with its method and bound", async () => {
    const { dog, hung } = watchdog();
    void dog.watch("textDocument/references", new Promise(() => {}));
    void dog.watch("textDocument/hover", new Promise(() => {}));
    await expect.poll(() => hung.length).toBe(1);
    expect(hung[0]).toMatchObject({ method: "textDocument/references", boundMs });
    expect(hung[0]!.afterMs).toBeGreaterThanOrEqual(boundMs - 5);
    await sleep(boundMs * 2);
    expect(hung).toHaveLength(1);
  });

  it("an answer, or an error such as the one owed for a cancelled request, stops the clock", async () => {
    const { dog, hung } = watchdog();
    await expect(
      dog.watch(
        "textDocument/hover",
        sleep(20).then(() => "answer"),
      ),
    ).resolves.toBe("answer");
    await expect(
      dog.watch(
        "textDocument/hover",
        sleep(20).then(() => Promise.reject(new Error("request cancelled"))),
      ),
    ).rejects.toThrow("request cancelled");
    await sleep(boundMs * 2);
    expect(hung).toEqual([]);
  });

  it("progress work pauses the clock, and the end of the last work gives the full bound again", async () => {
    const { dog, hung } = watchdog();
    void dog.watch("textDocument/definition", new Promise(() => {}));
    dog.progress("index", { kind: "begin", title: "Indexing" });
    dog.progress("load", { kind: "begin", title: "Loading" });
    // A report is not an end: the work goes on.
    dog.progress("index", { kind: "report", message: "3/10" });
    await sleep(boundMs * 2);
    dog.progress("index", { kind: "end" });
    await sleep(boundMs * 2);
    expect(hung).toEqual([]);
    const lastEnded = Date.now();
    dog.progress("load", { kind: "end" });
    await expect.poll(() => hung.length).toBe(1);
    expect(Date.now() - lastEnded).toBeGreaterThanOrEqual(boundMs - 5);
  });

  it("reports nothing after dispose", async () => {
    const { dog, hung } = watchdog();
    void dog.watch("textDocument/hover", new Promise(() => {}));
    dog.dispose();
    await sleep(boundMs * 2);
    expect(hung).toEqual([]);
  });

  it("describes bounds in seconds", () => {
    expect(describeBound(15_000)).toBe("15 s");
    expect(describeBound(1_500)).toBe("1.5 s");
  });
});
