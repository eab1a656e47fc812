import { describe, expect, it } from "vitest";
import { readGitPath } from "./git-quoted-path.js";

describe("readGitPath", () => {
  it("reads a plain name as it is", () => {
    expect(readGitPath("a/plain name.txt")).toEqual({ path: "a/plain name.txt", rest: "" });
  });

  it("reads git's C quoting: octal bytes of UTF-8, escapes, and the text after the closing quote", () => {
    expect(readGitPath('"a/\\303\\251t\\303\\251.txt" rest')).toEqual({ path: "a/été.txt", rest: " rest" });
    expect(readGitPath('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\"')).toEqual({ path: '\u0007\b\t\n\u000b\f\r"\\', rest: "" });
    expect(readGitPath('"é\\q"')).toEqual({ path: "éq", rest: "" });
    expect(readGitPath('"\\1234"')).toEqual({ path: "S4", rest: "" });
  });

  it("answers undefined for a quoted name that is not closed", () => {
    expect(readGitPath('"a/open')).toBeUndefined();
    expect(readGitPath('"a/ends in escape\\')).toBeUndefined();
  });
});
