import { describe, expect, it } from "vitest";
import { escapeLoneSurrogates, findIllFormedString, loneSurrogateIndex } from "./find-ill-formed-string.js";

describe("findIllFormedString", () => {
  it("accepts well-formed text, surrogate pairs included", () => {
    expect(
      findIllFormedString({
        name: "caf\u00e9 \ud83d\ude00",
        list: ["\ud83d\udc4d", { "k\ud83d\ude00": "v" }],
        n: 1,
        b: null,
      }),
    ).toBeUndefined();
  });

  it.each([
    ["\ud800x", 0, 0xd800],
    ["x\udbff", 1, 0xdbff],
    ["ab\udc00", 2, 0xdc00],
    ["\ud83d\ude00\ude00", 2, 0xde00],
    ["\ud83d\ud83d\ude00", 0, 0xd83d],
  ])("finds the lone surrogate of %j at %i", (text, index, codeUnit) => {
    expect(loneSurrogateIndex(text)).toBe(index);
    expect(findIllFormedString({ text })).toEqual({ path: ["text"], inKey: false, text, index, codeUnit });
  });

  it("names a value nested in objects and arrays by its path", () => {
    expect(findIllFormedString({ a: { b: [1, "ok", { c: "x\ud800" }] } })).toMatchObject({
      path: ["a", "b", "2", "c"],
      inKey: false,
      index: 1,
    });
  });

  it("names a key by the object holding it, at the top and nested in a record", () => {
    expect(findIllFormedString({ "\udc00": 1 })).toMatchObject({ path: [], inKey: true, text: "\udc00", index: 0 });
    expect(findIllFormedString({ env: { GOOD: "1", "BAD\ud800": "2" } })).toMatchObject({
      path: ["env"],
      inKey: true,
      text: "BAD\ud800",
      index: 3,
    });
  });

  it("names the first offender in document order, a key before its value", () => {
    expect(findIllFormedString({ a: "ok", b: ["\ud800"], c: "\ud801" })).toMatchObject({ path: ["b", "0"] });
    expect(findIllFormedString({ "k\ud800": "\ud801" })).toMatchObject({ path: [], inKey: true });
    expect(findIllFormedString({ a: { "\ud802": 1 }, "\ud803": 2 })).toMatchObject({
      path: ["a"],
      inKey: true,
      codeUnit: 0xd802,
    });
  });

  it("walks input nested deeper than the call stack, and a shared or cyclic object once", () => {
    let deep: unknown = "\ud800";
    for (let level = 0; level < 200_000; level += 1) deep = [deep];
    expect(findIllFormedString(deep)?.path).toHaveLength(200_000);
    const cyclic: Record<string, unknown> = { name: "ok" };
    cyclic["self"] = cyclic;
    expect(findIllFormedString(cyclic)).toBeUndefined();
  });
});

describe("escapeLoneSurrogates", () => {
  it("escapes lone halves and keeps pairs", () => {
    expect(escapeLoneSurrogates("\ud800x\ud83d\ude00\udfff")).toBe("\\ud800x\ud83d\ude00\\udfff");
  });
});
