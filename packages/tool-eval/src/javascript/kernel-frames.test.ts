import { describe, expect, it } from "vitest";
import { encodeHostFrame, parseKernelLine } from "./kernel-frames.js";

// The kernel writes this character itself (its program cannot import), so the test spells it out too.
const marker = "\u001e";

describe("the JavaScript kernel's frames", () => {
  it("reads a marked line as a frame and any other line as text a program printed", () => {
    expect(parseKernelLine(`${marker}{"t":"done","cell":3,"status":"ok"}`)).toEqual({ t: "done", cell: 3, status: "ok" });
    expect(parseKernelLine('{"t":"done","cell":3,"status":"ok"}')).toEqual({ t: "text", text: '{"t":"done","cell":3,"status":"ok"}' });
    expect(parseKernelLine("")).toEqual({ t: "text", text: "" });
  });

  it("throws on a marked line that is not JSON, so the reader can tell a cut frame", () => {
    expect(() => parseKernelLine(`${marker}{"t":"str`)).toThrow(SyntaxError);
  });

  it("writes one line per host frame, with line breaks in the code escaped", () => {
    const line = encodeHostFrame({ t: "execute", cell: 1, code: "let a = 1;\nconsole.log(a)" });
    expect(line).toBe('{"t":"execute","cell":1,"code":"let a = 1;\\nconsole.log(a)"}\n');
    expect(line.indexOf("\n")).toBe(line.length - 1);
  });
});
