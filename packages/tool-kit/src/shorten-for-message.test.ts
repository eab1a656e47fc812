import { describe, expect, it } from "vitest";
import { shortenForMessage } from "./shorten-for-message.js";

describe("shortenForMessage", () => {
  it("keeps text of at most the limit as it is", () => {
    expect(shortenForMessage("abcde", 5)).toBe("abcde");
    expect(shortenForMessage("", 5)).toBe("");
  });

  it("cuts longer text at the limit and says how long it was", () => {
    expect(shortenForMessage("abcdef", 5)).toBe("abcde… (6 characters)");
  });

  it("cuts before a character written as two UTF-16 units rather than through it", () => {
    expect(shortenForMessage("abcd😀f", 5)).toBe("abcd… (7 characters)");
  });

  it("cuts at the limit when only characters elsewhere are written as two units", () => {
    expect(shortenForMessage("😀bcdefg", 5)).toBe("😀bcd… (8 characters)");
    expect(shortenForMessage("abcdef😀", 5)).toBe("abcde… (8 characters)");
  });
});
