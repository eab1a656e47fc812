import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveBinary } from "./resolve-binary.js";

function program(path: string, executable = true): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, executable ? 0o755 : 0o644);
}

describe("resolveBinary", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-bin-")));
  const workdir = join(base, "repo");
  const onPath = join(base, "path-bin");
  program(join(onPath, "pyright-langserver"));
  program(join(onPath, "gopls"));
  program(join(workdir, "py", ".venv", "bin", "pyright-langserver"));
  program(join(workdir, "node_modules", ".bin", "typescript-language-server"));
  program(join(workdir, "py", "venv", "bin", "gopls"), false);

  it("prefers the project's own program to the one on PATH", async () => {
    expect(await resolveBinary("pyright-langserver", join(workdir, "py"), workdir, onPath)).toEqual({ found: true, path: join(workdir, "py", ".venv", "bin", "pyright-langserver") });
  });

  it("finds a monorepo's hoisted node_modules/.bin above the project root", async () => {
    expect(await resolveBinary("typescript-language-server", join(workdir, "packages", "web"), workdir, "")).toEqual({ found: true, path: join(workdir, "node_modules", ".bin", "typescript-language-server") });
  });

  it("skips files that are not executable and falls back to PATH", async () => {
    expect(await resolveBinary("gopls", join(workdir, "py"), workdir, `relative/bin:${onPath}`)).toEqual({ found: true, path: join(onPath, "gopls") });
  });

  it("answers every place it looked when the program is nowhere", async () => {
    const result = await resolveBinary("clangd", join(workdir, "py"), workdir, `${onPath}:relative`);
    expect(result).toEqual({
      found: false,
      looked: [
        join(workdir, "py", "node_modules/.bin"),
        join(workdir, "py", ".venv/bin"),
        join(workdir, "py", "venv/bin"),
        join(workdir, "node_modules/.bin"),
        join(workdir, ".venv/bin"),
        join(workdir, "venv/bin"),
        onPath,
      ],
    });
  });

  it("checks an absolute command as it is", async () => {
    expect(await resolveBinary(join(onPath, "gopls"), workdir, workdir, "")).toEqual({ found: true, path: join(onPath, "gopls") });
    expect(await resolveBinary(join(onPath, "nope"), workdir, workdir, "")).toEqual({ found: false, looked: [join(onPath, "nope")] });
  });
});
