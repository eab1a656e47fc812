import { describe, expect, it } from "vitest";
import { nonObjectKind, parseJsonInput } from "./parse-json-input.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("It was accepted.");
}

describe("parseJsonInput", () => {
  it("returns the object", () => {
    expect(parseJsonInput(' {"path":"a"} ', "argument")).toEqual({ path: "a" });
  });

  it("says where bad JSON came from and how to send it from there", () => {
    expect(messageOf(() => parseJsonInput("{path: x}", "argument"))).toMatch(
      /^The input argument is not valid JSON \(.+\): `\{path: x\}`\. Quote the object for your shell, as in '\{"path":"README.md"\}'\.$/,
    );
    expect(messageOf(() => parseJsonInput("{path: x}", "stdin"))).toMatch(
      /^The input on stdin is not valid JSON \(.+\): `\{path: x\}`\. Send one JSON object on stdin, as in `echo '\{"path":"README.md"\}' \| runbound call read -`\.$/,
    );
  });

  it("keeps the message on one line and cuts a long input at 80 characters", () => {
    const message = messageOf(() => parseJsonInput(`{"a":\n  1,\n${"x".repeat(200)}`, "stdin"));
    expect(message).not.toContain("\n");
    expect(message).toContain(`: \`{"a": 1, ${"x".repeat(71)}…\`.`);
    expect(messageOf(() => parseJsonInput(`"${"y".repeat(78)}"`, "argument"))).toContain(`\`"${"y".repeat(78)}"\``);
    expect(messageOf(() => parseJsonInput("\n  {bad  \n", "stdin"))).toContain(": `{bad`. Send");
  });

  it("refuses empty input and a JSON value that is not an object, naming its kind", () => {
    expect(messageOf(() => parseJsonInput(" \n", "stdin"))).toBe(
      `The input on stdin is empty. Send one JSON object on stdin, as in \`echo '{"path":"README.md"}' | runbound call read -\`.`,
    );
    expect(messageOf(() => parseJsonInput("3", "argument"))).toBe(
      `The input argument is a number, not a JSON object: \`3\`. Quote the object for your shell, as in '{"path":"README.md"}'.`,
    );
    expect(messageOf(() => parseJsonInput("[1]", "argument"))).toContain("is an array, not a JSON object: `[1]`.");
    expect(messageOf(() => parseJsonInput("null", "argument"))).toContain("is null, not a JSON object");
  });
});

describe("nonObjectKind", () => {
  it("names every kind of JSON value but an object", () => {
    expect([{}, [], null, 1, "s", true].map(nonObjectKind)).toEqual([
      undefined,
      "an array",
      "null",
      "a number",
      "a string",
      "a boolean",
    ]);
  });
});
