import { describe, expect, it } from "vitest";
import { testArtifacts } from "./cargo-test-binary.js";

describe("testArtifacts", () => {
  it("keeps the test-profile artifacts with an executable, skipping other messages and lines", () => {
    const messages = [
      '{"reason":"compiler-artifact","profile":{"test":false},"executable":"/t/debug/app","target":{"name":"app","src_path":"/c/src/main.rs"}}',
      '{"reason":"compiler-artifact","profile":{"test":true},"executable":"/t/debug/deps/app-1f","target":{"name":"app","src_path":"/c/src/main.rs"}}',
      '{"reason":"compiler-artifact","profile":{"test":true},"executable":null,"target":{"name":"lib","src_path":"/c/src/lib.rs"}}',
      '{"reason":"build-finished","success":true}',
      "   Compiling app v0.1.0",
      "{not json",
    ].join("\n");
    expect(testArtifacts(messages)).toEqual([
      { executable: "/t/debug/deps/app-1f", source: "/c/src/main.rs", name: "app" },
    ]);
  });
});
