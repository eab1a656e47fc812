import { describe, expect, it } from "vitest";
import { headOf, tailOf } from "./cut-text.js";

describe("headOf and tailOf", () => {
  it("keep text that fits as it is", () => {
    expect(headOf("abc", 3)).toBe("abc");
    expect(tailOf("abc", 3)).toBe("abc");
  });

  it("keep the start or the end and mark the cut", () => {
    expect(headOf("abcdef", 4)).toBe("abcd…");
    expect(tailOf("abcdef", 4)).toBe("…cdef");
  });

  it("never split a surrogate pair", () => {
    expect(headOf("ab😀cd", 3)).toBe("ab…");
    expect(headOf("a😀cd", 3)).toBe("a😀…");
    expect(tailOf("ab😀cd", 3)).toBe("…cd");
    expect(tailOf("ab😀c", 3)).toBe("…😀c");
  });
});
