import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { cellToolAnswer } from "./cell-tool-answer.js";

describe("cellToolAnswer", () => {
  it("gives the cell the text parts joined, the images, and structured data when there is some", () => {
    const result = {
      content: [
        { type: "text" as const, text: "one" },
        { type: "image" as const, data: "AAAA", mimeType: "image/png" },
        { type: "text" as const, text: "two" },
      ],
      structured: { count: 2 },
    };
    expect(cellToolAnswer(4, { result })).toEqual({
      t: "tool_result",
      id: 4,
      ok: true,
      value: { text: "one\ntwo", images: [{ data: "AAAA", mimeType: "image/png" }], structured: { count: 2 } },
    });
    expect(cellToolAnswer(5, { result: { content: [{ type: "text", text: "only" }] } })).toStrictEqual({
      t: "tool_result",
      id: 5,
      ok: true,
      value: { text: "only", images: [] },
    });
  });

  it("turns a result marked isError into a failure carrying its text", () => {
    expect(
      cellToolAnswer(6, { result: { content: [{ type: "text", text: "`a.txt` does not exist." }], isError: true } }),
    ).toEqual({ t: "tool_result", id: 6, ok: false, error: { message: "`a.txt` does not exist." } });
    expect(cellToolAnswer(6, { result: { content: [{ type: "text", text: "fine" }], isError: false } })).toMatchObject({
      ok: true,
    });
  });

  it("keeps a ToolError's code, and calls any other thrown value internal", () => {
    expect(cellToolAnswer(7, { error: new ToolError({ code: "denied", message: "Refused `write`." }) })).toEqual({
      t: "tool_result",
      id: 7,
      ok: false,
      error: { code: "denied", message: "Refused `write`." },
    });
    expect(cellToolAnswer(8, { error: new Error("socket closed") })).toEqual({
      t: "tool_result",
      id: 8,
      ok: false,
      error: { code: "internal", message: "socket closed" },
    });
    expect(cellToolAnswer(9, { error: "a bare string" })).toEqual({
      t: "tool_result",
      id: 9,
      ok: false,
      error: { code: "internal", message: "a bare string" },
    });
  });
});
