import { describe, expect, it } from "vitest";
import { displayWorkerCommand, toWorkerCommand } from "./worker-command.js";

describe("worker commands", () => {
  it("run a command line through /bin/sh -c and a program with its arguments as they are", () => {
    expect(toWorkerCommand("agent --model small | tee log")).toEqual({
      command: "/bin/sh",
      args: ["-c", "agent --model small | tee log"],
    });
    expect(toWorkerCommand({ command: "agent", args: ["-p"] })).toEqual({ command: "agent", args: ["-p"] });
    expect(toWorkerCommand({ command: "agent" })).toEqual({ command: "agent", args: [] });
  });

  it("show as the user wrote them, cut to 120 characters", () => {
    expect(displayWorkerCommand("agent -p")).toBe("agent -p");
    expect(displayWorkerCommand({ command: "agent", args: ["-p", "--model", "small"] })).toBe("agent -p --model small");
    expect(displayWorkerCommand({ command: "agent" })).toBe("agent");
    expect(displayWorkerCommand("a".repeat(130))).toBe(`${"a".repeat(120)}…`);
  });
});
