import { describe, expect, it } from "vitest";
import { parseCargoJson } from "./cargo-json.js";
import { recordedOutput } from "../test-support/recorded-output.js";

describe("parseCargoJson (cargo check --message-format=json)", () => {
  it("reads a compiler error at its primary span, made absolute from the manifest, and drops the failure note", () => {
    expect(parseCargoJson(recordedOutput("cargo-error.jsonl"))).toEqual([
      {
        file: "/home/dev/checker-projects/rust/src/main.rs",
        line: 3,
        severity: "error",
        code: "E0308",
        message: "mismatched types",
      },
    ]);
  });

  it("reads warnings with their lint code and skips artifacts and build-finished", () => {
    expect(parseCargoJson(recordedOutput("cargo-warnings.jsonl"))).toEqual([
      {
        file: "/home/dev/checker-projects/rustwarn/src/main.rs",
        line: 4,
        severity: "warning",
        code: "unused_variables",
        message: "unused variable: `unused`",
      },
      {
        file: "/home/dev/checker-projects/rustwarn/src/main.rs",
        line: 1,
        severity: "warning",
        code: "dead_code",
        message: "function `helper` is never used",
      },
    ]);
  });

  it("a workspace member's spans are relative to the workspace root, not to the member", () => {
    expect(
      parseCargoJson(recordedOutput("cargo-workspace-member.jsonl")).filter(
        (diagnostic) => diagnostic.severity === "error",
      ),
    ).toEqual([
      {
        file: "/home/dev/checker-projects/ws/crates/app/src/util.rs",
        line: 2,
        severity: "error",
        code: "E0308",
        message: "mismatched types",
      },
    ]);
  });

  it("keeps an absolute span file, a message without spans or code, and a file when the manifest is unknown", () => {
    const message = (fields: Record<string, unknown>, manifest: unknown = "/ws/app/Cargo.toml"): string =>
      JSON.stringify({
        reason: "compiler-message",
        manifest_path: manifest,
        message: { message: "m", code: null, spans: [], ...fields },
      });
    const span = (file: string, primary: boolean, line: unknown = 5): Record<string, unknown> => ({
      file_name: file,
      is_primary: primary,
      line_start: line,
    });
    const output = [
      message({ level: "warning", spans: [span("/registry/dep/src/lib.rs", true)] }),
      message({ level: "error", message: "linking with `cc` failed", code: { code: "E0001" } }),
      message({ level: "error", spans: [span("src/other.rs", false), span("src/lib.rs", true)] }, null),
      message({ level: "error", spans: [span("src/lib.rs", true, "5")] }),
      message({ level: "error", spans: [{ ...span("src/lib.rs", true), file_name: 3 }] }),
      message({ level: "warning", code: { code: 5 }, spans: [null, "span", span("src/a.rs", true, 2)] }),
      message({ level: "note", spans: [span("src/lib.rs", true)] }),
      message({ level: "help" }),
      JSON.stringify({ reason: "compiler-message", message: "not an object" }),
      JSON.stringify({ reason: "compiler-artifact", message: { level: "error", message: "m" } }),
      "{ not json",
      "    Checking app v0.1.0",
      "",
    ].join("\n");
    expect(parseCargoJson(output)).toEqual([
      { file: "/registry/dep/src/lib.rs", line: 5, severity: "warning", code: undefined, message: "m" },
      { severity: "error", code: "E0001", message: "linking with `cc` failed" },
      { file: "src/lib.rs", line: 5, severity: "error", code: undefined, message: "m" },
      { file: "/ws/app/src/lib.rs", line: undefined, severity: "error", code: undefined, message: "m" },
      { severity: "error", code: undefined, message: "m" },
      { file: "/ws/app/src/a.rs", line: 2, severity: "warning", code: undefined, message: "m" },
    ]);
  });
});
