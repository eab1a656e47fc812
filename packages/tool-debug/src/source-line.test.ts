import { mkdirSync, mkdtempSync, realpathSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceLine, sourceLines } from "./source-line.js";

const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-source-line-")));

describe("sourceLine", () => {
  it("gives the 1-based line without its line ending, for LF and CRLF files", () => {
    writeFileSync(join(workdir, "lf.py"), "first\nsecond  \nthird");
    writeFileSync(join(workdir, "crlf.c"), "one\r\ntwo\r\n");
    expect(sourceLine(workdir, join(workdir, "lf.py"), 1)).toBe("first");
    expect(sourceLine(workdir, join(workdir, "lf.py"), 2)).toBe("second");
    expect(sourceLine(workdir, join(workdir, "lf.py"), 3)).toBe("third");
    expect(sourceLine(workdir, join(workdir, "crlf.c"), 2)).toBe("two");
  });

  it("is nothing for a line past the end, a missing path or line, a directory, or a missing file", () => {
    writeFileSync(join(workdir, "short.py"), "only\n");
    expect(sourceLine(workdir, join(workdir, "short.py"), 3)).toBeUndefined();
    expect(sourceLine(workdir, join(workdir, "short.py"), 0)).toBeUndefined();
    expect(sourceLine(workdir, undefined, 1)).toBeUndefined();
    expect(sourceLine(workdir, join(workdir, "short.py"), undefined)).toBeUndefined();
    mkdirSync(join(workdir, "folder"));
    expect(sourceLine(workdir, join(workdir, "folder"), 1)).toBeUndefined();
    expect(sourceLine(workdir, join(workdir, "gone.py"), 1)).toBeUndefined();
  });

  it("never reads a file outside the workdir, unless it is one the caller named (a dependency with a breakpoint)", () => {
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), "runbound-source-outside-"))), "secret.py");
    writeFileSync(outside, "secret\n");
    expect(sourceLine(workdir, outside, 1)).toBeUndefined();
    expect(sourceLine(workdir, outside, 1, new Set([outside]))).toBe("secret");
  });

  it("gives the lines around a line, as many as the file has", () => {
    writeFileSync(join(workdir, "five.py"), "a\nb\nc\nd\ne\n");
    expect(sourceLines(workdir, join(workdir, "five.py"), 3, 2)?.map((row) => row.text)).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
    ]);
    expect(sourceLines(workdir, join(workdir, "five.py"), 1, 2)?.map((row) => row.line)).toEqual([1, 2, 3]);
    expect(sourceLines(workdir, join(workdir, "five.py"), 5, 2)?.map((row) => row.text)).toEqual(["c", "d", "e"]);
    expect(sourceLines(workdir, join(workdir, "five.py"), 9, 2)).toBeUndefined();
  });

  it("cuts a long line at 200 characters", () => {
    writeFileSync(join(workdir, "long.py"), `${"x".repeat(300)}\n`);
    expect(sourceLine(workdir, join(workdir, "long.py"), 1)).toMatch(/^x{200}/);
    expect(sourceLine(workdir, join(workdir, "long.py"), 1)!.length).toBeLessThan(260);
  });

  it("reads the file again once it changed, even within the same second and at the same size", () => {
    const file = join(workdir, "edited.py");
    writeFileSync(file, "before\n");
    utimesSync(file, 1_000, 1_000);
    expect(sourceLine(workdir, file, 1)).toBe("before");
    writeFileSync(file, "after!\n");
    utimesSync(file, 1_000, 1_000.5);
    expect(sourceLine(workdir, file, 1)).toBe("after!");
    writeFileSync(file, "longer now\n");
    utimesSync(file, 1_000, 1_000.5);
    expect(sourceLine(workdir, file, 1)).toBe("longer now");
  });

  it("skips a file over 4 MiB", () => {
    const file = join(workdir, "huge.py");
    writeFileSync(file, "head\n");
    truncateSync(file, 4 * 1024 * 1024 + 1);
    expect(sourceLine(workdir, file, 1)).toBeUndefined();
    truncateSync(file, 4 * 1024 * 1024);
    expect(sourceLine(workdir, file, 1)).toBe("head");
  });

  it("decodes a line of multi-byte characters far into the file, and the empty line after a final newline", () => {
    const file = join(workdir, "unicode.py");
    writeFileSync(file, `${"pass\n".repeat(5_000)}naïve = "日本語 ✓"\r\nlast\n`);
    expect(sourceLine(workdir, file, 5_001)).toBe('naïve = "日本語 ✓"');
    expect(sourceLine(workdir, file, 5_002)).toBe("last");
    expect(sourceLine(workdir, file, 5_003)).toBe("");
    expect(sourceLine(workdir, file, 5_004)).toBeUndefined();
    expect(sourceLine(workdir, file, 1.5)).toBeUndefined();
  });
});
