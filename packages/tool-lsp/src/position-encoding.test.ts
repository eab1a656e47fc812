import { describe, expect, it } from "vitest";
import { characterInEncoding, negotiatedEncoding, utf16IndexFromCharacter } from "./position-encoding.js";

// "名前" are 2 UTF-16 units / 6 UTF-8 bytes / 2 code points; "😀" is 2 / 4 / 1.
const line = 'const 名前 = "😀"; greet(名前);';
const greet = line.indexOf("greet");

describe("position encodings", () => {
  it("converts a UTF-16 index to each encoding's character offset", () => {
    // const␠(6) 名前(2 units, 6 bytes, 2 points) ␠=␠(3) "😀"(4 units, 6 bytes, 3 points) ;␠(2)
    expect(greet).toBe(17);
    expect(characterInEncoding(line, greet, "utf-16")).toBe(17);
    expect(characterInEncoding(line, greet, "utf-8")).toBe(23);
    expect(characterInEncoding(line, greet, "utf-32")).toBe(16);
  });

  it("converts back to the same UTF-16 index", () => {
    for (const encoding of ["utf-8", "utf-16", "utf-32"] as const) {
      expect(utf16IndexFromCharacter(line, characterInEncoding(line, greet, encoding), encoding)).toBe(greet);
    }
    expect(utf16IndexFromCharacter(line, 999, "utf-16")).toBe(line.length);
    expect(utf16IndexFromCharacter(line, 999, "utf-8")).toBe(line.length);
  });

  it("uses UTF-16 unless the server chose UTF-8 or UTF-32", () => {
    expect(negotiatedEncoding(undefined)).toBe("utf-16");
    expect(negotiatedEncoding("utf-8")).toBe("utf-8");
    expect(negotiatedEncoding("utf-32")).toBe("utf-32");
    expect(negotiatedEncoding("latin-1")).toBe("utf-16");
  });
});
