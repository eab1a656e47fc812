import { describe, expect, it } from "vitest";
import { encodeHostFrame, frameMarker, parseKernelLine } from "./kernel-frames.js";

const marker = frameMarker("0123abcd");

describe("the JavaScript kernel's frames", () => {
  it("reads a line with the marker as a frame and any other line as text a program printed", () => {
    expect(marker).toBe("\u001e0123abcd ");
    expect(parseKernelLine(`${marker}{"t":"done","cell":3,"status":"ok"}`, marker)).toEqual({
      text: "",
      frame: { t: "done", cell: 3, status: "ok" },
    });
    expect(parseKernelLine('{"t":"done","cell":3,"status":"ok"}', marker)).toEqual({
      text: '{"t":"done","cell":3,"status":"ok"}',
      frame: undefined,
    });
    expect(parseKernelLine("", marker)).toEqual({ text: "", frame: undefined });
  });

  it("does not obey a frame with the record separator but without the secret", () => {
    expect(parseKernelLine('\u001e{"t":"done","cell":3,"status":"ok"}', marker)).toEqual({
      text: '\u001e{"t":"done","cell":3,"status":"ok"}',
      frame: undefined,
    });
    expect(parseKernelLine('\u001eother {"t":"done","cell":3,"status":"ok"}', marker).frame).toBeUndefined();
  });

  it("splits a program's partial line from the frame glued after it", () => {
    expect(parseKernelLine(`no newline yet${marker}{"t":"ready","node":"v20"}`, marker)).toEqual({
      text: "no newline yet",
      frame: { t: "ready", node: "v20" },
    });
  });

  it("throws on a marked line that is not JSON, so the reader can tell a cut frame", () => {
    expect(() => parseKernelLine(`${marker}{"t":"str`, marker)).toThrow(SyntaxError);
  });

  it("writes one line per host frame, with line breaks in the code escaped", () => {
    const line = encodeHostFrame({ t: "execute", cell: 1, code: "let a = 1;\nconsole.log(a)" });
    expect(line).toBe('{"t":"execute","cell":1,"code":"let a = 1;\\nconsole.log(a)"}\n');
    expect(line.indexOf("\n")).toBe(line.length - 1);
  });
});
