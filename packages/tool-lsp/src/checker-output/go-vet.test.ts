import { describe, expect, it } from "vitest";
import { parseGoVetOutput } from "./go-vet.js";
import { recordedOutput } from "../test-support/recorded-output.js";

describe("parseGoVetOutput (go vet ./..., stderr)", () => {
  it("reads analyzer findings as warnings and a package that does not type-check as an error, skipping package headers", () => {
    expect(parseGoVetOutput(recordedOutput("go-vet-stderr.txt"))).toEqual([
      {
        file: "main.go",
        line: 7,
        severity: "warning",
        message: "fmt.Printf format %d has arg name of wrong type string",
      },
      { file: "broken/broken.go", line: 4, severity: "error", message: "undefined: undefinedThing" },
      {
        file: "store/store.go",
        line: 6,
        severity: "warning",
        message: "fmt.Sprintf format %s has arg count of wrong type int",
      },
    ]);
  });

  it("accepts a position without a column and a message holding colons; ignores what is not a finding", () => {
    const output = [
      "# example.com/m",
      "sub/x.go:12: possible misuse of unsafe.Pointer: here",
      "go: downloading example.com/dep v1.0.0",
      "notes.txt:3:1: not Go",
      "main.go:x:1: no line",
      "b.go:2:1: one\u2028two",
      "",
    ].join("\n");
    expect(parseGoVetOutput(output)).toEqual([
      { file: "sub/x.go", line: 12, severity: "warning", message: "possible misuse of unsafe.Pointer: here" },
      { file: "b.go", line: 2, severity: "warning", message: "one\u2028two" },
    ]);
  });
});
