import { describe, expect, it } from "vitest";
import { errnoCode, fileSystemToolError } from "./file-system-error.js";
import { ToolError } from "@runbound/tool-kit";

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

describe("fileSystemToolError", () => {
  it.each([
    ["ENOENT", "not_found", "`src/a.ts` does not exist. Check the path; it is relative to the working directory."],
    [
      "ENOTDIR",
      "invalid_input",
      "A part of `src/a.ts` is a file, not a directory, so the path cannot exist. Check each directory in the path.",
    ],
    ["EISDIR", "invalid_input", "`src/a.ts` is a directory, not a file. Give the path of a file inside it."],
    [
      "ELOOP",
      "invalid_input",
      "`src/a.ts` goes through a loop of symbolic links (or too many of them). Use the real path of the file.",
    ],
    [
      "ENAMETOOLONG",
      "invalid_input",
      "`src/a.ts` is too long for the file system (a name has at most 255 bytes, a path 4096). Use a shorter path.",
    ],
    [
      "EACCES",
      "io_error",
      "Permission to use `src/a.ts` was refused by the system (EACCES). Nothing was changed; check the file's and its directory's permissions.",
    ],
    [
      "EPERM",
      "io_error",
      "Permission to use `src/a.ts` was refused by the system (EPERM). Nothing was changed; check the file's and its directory's permissions.",
    ],
    [
      "ENOSPC",
      "io_error",
      "There is no space left to write `src/a.ts`. Nothing was changed; free some disk space, then try again.",
    ],
    [
      "EDQUOT",
      "io_error",
      "There is no space left to write `src/a.ts`. Nothing was changed; free some disk space, then try again.",
    ],
    ["EROFS", "io_error", "`src/a.ts` is on a read-only file system. Nothing was changed."],
    ["EIO", "io_error", "Using `src/a.ts` failed (EIO: injected). Nothing was changed; check the path and try again."],
  ])("maps %s to %s with a sentence naming the path", (code, toolCode, message) => {
    const cause = errno(code);
    const mapped = fileSystemToolError(cause, "src/a.ts");
    expect(mapped.code).toBe(toolCode);
    expect(mapped.message).toBe(message);
    expect(mapped.cause).toBe(cause);
  });

  it("passes a ToolError through and maps what is not an errno error to io_error", () => {
    const own = new ToolError({ code: "conflict", message: "changed" });
    expect(fileSystemToolError(own, "x")).toBe(own);
    expect(fileSystemToolError("boom", "x").message).toBe(
      "Using `x` failed (boom). Nothing was changed; check the path and try again.",
    );
  });

  it("reads only string codes", () => {
    expect(errnoCode(errno("EIO"))).toBe("EIO");
    expect(errnoCode({ code: 5 })).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
  });
});
