import { askFor, createRun } from "@runbound/runner-adapter";
import { defineTool, resultErrorCode, resultText, definePlugin } from "@runbound/tool-kit";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createInMemoryAskPort, type InMemoryAskPort } from "./in-memory-ask-port.js";
import { createPortApprover } from "./port-approver.js";

function writer(name: string) {
  return defineTool({
    name,
    tier: "write",
    description: `Writes (${name}).`,
    input: v.strictObject({ text: v.pipe(v.string(), v.description("What to write.")) }),
    requires: [],
    parallelSafe: true,
    run: async () => "written",
  });
}
const plugin = definePlugin({ name: "writers", version: "1.0.0", tools: [writer("save"), writer("publish")] });

function runWith(port: InMemoryAskPort | undefined, id = "run-a") {
  return createRun({
    id,
    plugins: [plugin],
    approvalPolicy: askFor(["write"]),
    ...(port === undefined ? {} : { approver: createPortApprover(port) }),
  });
}

/** Answer every card with `reply`, recording the cards' text. */
function operator(port: InMemoryAskPort, replies: string[]): string[] {
  const shown: string[] = [];
  port.subscribe((event) => {
    if (event.type !== "added") return;
    shown.push(event.pending.text);
    port.reply(event.pending.card.id, replies.shift() ?? "skip");
  });
  return shown;
}

describe("createPortApprover", () => {
  it("shows a permission card with allow once, always and deny, and asks again after `allow once`", async () => {
    const port = createInMemoryAskPort();
    const shown = operator(port, ["1", "Allow once"]);
    const run = runWith(port);
    expect(resultText(await run.call("save", { text: "a" }))).toBe("written");
    expect(resultText(await run.call("save", { text: "b" }))).toBe("written");
    expect(shown).toHaveLength(2);
    expect(shown[0]).toBe(
      [
        "Permission: May `save` (write) run for main?",
        '  Input: {"text":"a"}',
        "  1) Allow once — Run this call only.",
        "  2) Always allow — Run every call of `save` in this run without asking.",
        "  3) Deny — Do not run it; the model is told it was denied.",
        "Reply with a number (1–3) or the option's label; `skip` to skip.",
      ].join("\n"),
    );
  });

  it("remembers `always` for that tool in that run only", async () => {
    const port = createInMemoryAskPort();
    const shown = operator(port, ["2", "1", "1"]);
    const run = runWith(port);
    await run.call("save", { text: "a" });
    await run.call("save", { text: "b" });
    expect(shown).toHaveLength(1);
    await run.call("publish", { text: "c" });
    expect(shown).toHaveLength(2);
    await runWith(port, "run-b").call("save", { text: "d" });
    expect(shown).toHaveLength(3);
  });

  it("denies on deny, on a skip, with no operator, and on a timeout", async () => {
    const port = createInMemoryAskPort();
    operator(port, ["3", "skip"]);
    const run = runWith(port);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await run.call("save", { text: "a" });
      expect(resultErrorCode(result)).toBe("denied");
    }
    port.setOperatorPresent(false);
    expect(resultErrorCode(await run.call("save", { text: "a" }))).toBe("denied");
    const silent = createInMemoryAskPort();
    const approver = createPortApprover(silent, { timeoutMs: 20 });
    expect(
      await approver.approve(
        { tool: { name: "save", tier: "write" }, input: {}, runId: "r" },
        new AbortController().signal,
      ),
    ).toBe(false);
    expect(silent.pending()).toEqual([]);
  });

  it("shows at most 500 characters of a long input", async () => {
    const port = createInMemoryAskPort();
    const shown = operator(port, ["3"]);
    await runWith(port).call("save", { text: "x".repeat(2_000) });
    expect(shown[0]).toContain(`… (${JSON.stringify({ text: "x".repeat(2_000) }).length} characters in all)`);
    expect(shown[0]!.length).toBeLessThan(900);
  });

  it("leaves the decision to the host's policy with no port: an ask is denied at once", async () => {
    const result = await runWith(undefined).call("save", { text: "a" });
    expect(resultErrorCode(result)).toBe("denied");
    expect(resultText(result)).toContain("no approver is connected to this run");
  });
});
