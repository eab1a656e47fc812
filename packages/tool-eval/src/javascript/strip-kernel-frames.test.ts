import { describe, expect, it } from "vitest";
import { stripKernelFrames } from "./strip-kernel-frames.js";

// Stacks as the kernel reports them (recorded from a Node 20 kernel).
const dispatched = [
  "Error: boom",
  "    at explode (cell-7:2:9)",
  "    at cell-7:4:1",
  "    at Session.post (node:inspector:136:22)",
  "    at execute ([eval]:135:9)",
  "    at Worker.receive ([eval]:165:13)",
  "    at Worker.emit (node:events:524:28)",
  "    at MessagePort.<anonymous> (node:internal/worker:268:53)",
].join("\n");

describe("stripKernelFrames", () => {
  it("keeps the cell's frames and drops the kernel's dispatch below them", () => {
    expect(stripKernelFrames(dispatched)).toBe("Error: boom\n    at explode (cell-7:2:9)\n    at cell-7:4:1");
  });

  it("drops a kernel helper's frame above the cell's and keeps Node's own", () => {
    const stack = [
      "TypeError: tool() takes the tool's name",
      "    at globalThis.tool ([eval]:212:38)",
      "    at cell-3:1:7",
      "    at listOnTimeout (node:internal/timers:581:17)",
    ].join("\n");
    expect(stripKernelFrames(stack)).toBe(
      "TypeError: tool() takes the tool's name\n    at cell-3:1:7\n    at listOnTimeout (node:internal/timers:581:17)",
    );
  });

  it("keeps message lines that mention the kernel's names, and a stack with no frames", () => {
    const message = "Error: failed at [eval] and at (node:inspector:1)\nquoted: at Session.post (node:inspector:1:1)";
    expect(stripKernelFrames(message)).toBe(message);
    expect(stripKernelFrames("")).toBe("");
  });

  it("knows a kernel frame by its location, not by the function's name", () => {
    expect(stripKernelFrames("Error: x\n    at evalHelper (cell-2:1:1)\n    at inspectorLike (cell-2:3:1)")).toBe(
      "Error: x\n    at evalHelper (cell-2:1:1)\n    at inspectorLike (cell-2:3:1)",
    );
  });
});
