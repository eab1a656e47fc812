import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findExecutable, pathDirectories, versionedNames } from "./find-executable.js";

function tree(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), "runbound-find-"));
  for (const [path, mode] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), "#!/bin/sh\n");
    chmodSync(join(root, path), mode);
  }
  return root;
}

describe("finding adapter programs", () => {
  it("searches directories in order, then names in order within each", async () => {
    const root = tree({ "a/second": 0o755, "b/first": 0o755, "b/second": 0o755 });
    expect(await findExecutable(["first", "second"], [join(root, "a"), join(root, "b")])).toBe(join(root, "a/second"));
    expect(await findExecutable(["first"], [join(root, "a"), join(root, "b")])).toBe(join(root, "b/first"));
    expect(await findExecutable(["none"], [join(root, "a")])).toBeUndefined();
  });

  it("keeps absolute PATH entries once each", () => {
    expect(pathDirectories("/usr/bin:relative:/bin:/usr/bin::")).toEqual(["/usr/bin", "/bin"]);
    expect(pathDirectories(undefined)).toEqual([]);
  });

  it("lists versioned names highest version first, ignoring look-alikes", async () => {
    const root = tree({
      "x/lldb-vscode-9": 0o755,
      "x/lldb-vscode-16": 0o755,
      "y/lldb-vscode-11": 0o755,
      "y/lldb-vscode-16.0": 0o755,
      "y/lldb-vscodeX-17": 0o755,
      "y/lldb-vscode": 0o755,
    });
    expect(await versionedNames("lldb-vscode", [join(root, "x"), join(root, "y"), join(root, "missing")])).toEqual([
      "lldb-vscode-16",
      "lldb-vscode-11",
      "lldb-vscode-9",
    ]);
  });

  it("takes a base name literally, not as a pattern", async () => {
    const root = tree({ "bin/tool.x-3": 0o755, "bin/toolyx-4": 0o755, "bin/tool.x-beta": 0o755 });
    expect(await versionedNames("tool.x", [join(root, "bin")])).toEqual(["tool.x-3"]);
  });
});
