import { chmodSync, linkSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeUnusable, resolveBinary } from "./resolve-binary.js";

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
  const projectBins = () => [join(workdir, "node_modules/.bin"), join(workdir, ".venv/bin"), join(workdir, "venv/bin")];

  it("prefers the project's own program to the one on PATH", async () => {
    expect(await resolveBinary("pyright-langserver", join(workdir, "py"), workdir, onPath)).toEqual({
      found: true,
      path: join(workdir, "py", ".venv", "bin", "pyright-langserver"),
    });
  });

  it("finds a monorepo's hoisted node_modules/.bin above the project root", async () => {
    expect(await resolveBinary("typescript-language-server", join(workdir, "packages", "web"), workdir, "")).toEqual({
      found: true,
      path: join(workdir, "node_modules", ".bin", "typescript-language-server"),
    });
  });

  it("skips files that are not executable and falls back to PATH", async () => {
    expect(await resolveBinary("gopls", join(workdir, "py"), workdir, `relative/bin:${onPath}`)).toEqual({
      found: true,
      path: join(onPath, "gopls"),
    });
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

  it("searches and names a directory listed twice on PATH once", async () => {
    expect(await resolveBinary("clangd", workdir, workdir, `${onPath}:${onPath}`)).toEqual({
      found: false,
      looked: [...projectBins(), onPath],
    });
  });

  it("does not take a directory with the program's name for the program", async () => {
    const directories = join(base, "directory-bin");
    mkdirSync(join(directories, "clangd"), { recursive: true });
    expect(await resolveBinary("clangd", workdir, workdir, `${directories}:${onPath}`)).toEqual({
      found: false,
      looked: [...projectBins(), directories, onPath],
    });
  });

  it("joins the reasons of several unusable programs into one part of a sentence", () => {
    expect(
      describeUnusable([
        { path: "/a/x", reason: "`/a/x` is a proxy" },
        { path: "/b/x", reason: "`/b/x` is a proxy" },
      ]),
    ).toBe("`/a/x` is a proxy; `/b/x` is a proxy");
  });

  it("checks an absolute command as it is", async () => {
    expect(await resolveBinary(join(onPath, "gopls"), workdir, workdir, "")).toEqual({
      found: true,
      path: join(onPath, "gopls"),
    });
    expect(await resolveBinary(join(onPath, "nope"), workdir, workdir, "")).toEqual({
      found: false,
      looked: [join(onPath, "nope")],
    });
  });

  describe("a rustup proxy (a link to `rustup` that runs the active toolchain's program)", () => {
    const cargoBin = join(base, "cargo-home", "bin");
    const linkedBin = join(base, "hard-linked", "bin");
    const rustupHome = join(base, "rustup-home");
    const toolchains = join(rustupHome, "toolchains");
    program(join(cargoBin, "rustup"));
    symlinkSync("rustup", join(cargoBin, "rust-analyzer"));
    symlinkSync("rustup", join(cargoBin, "cargo"));
    program(join(linkedBin, "rustup"));
    linkSync(join(linkedBin, "rustup"), join(linkedBin, "rust-analyzer"));
    program(join(toolchains, "stable-x86_64-unknown-linux-gnu", "bin", "cargo"));
    mkdirSync(join(toolchains, "nightly-x86_64-unknown-linux-gnu", "bin"), { recursive: true });
    const env = { RUSTUP_HOME: rustupHome };
    const reason = (proxy: string) =>
      `\`${proxy}\` is a rustup proxy without the \`rust-analyzer\` component (none of the toolchains in \`${toolchains}\` (\`nightly-x86_64-unknown-linux-gnu\`, \`stable-x86_64-unknown-linux-gnu\`) has it), so it would fail instead of starting`;

    it("is not usable when no installed toolchain has the component", async () => {
      expect(await resolveBinary("rust-analyzer", workdir, workdir, `${cargoBin}:${cargoBin}`, env)).toEqual({
        found: false,
        looked: [...projectBins(), cargoBin],
        unusable: [{ path: join(cargoBin, "rust-analyzer"), reason: reason(join(cargoBin, "rust-analyzer")) }],
      });
    });

    it("is recognised as a hard link of `rustup` too", async () => {
      const result = await resolveBinary("rust-analyzer", workdir, workdir, linkedBin, env);
      expect(result).toMatchObject({
        found: false,
        unusable: [{ path: join(linkedBin, "rust-analyzer"), reason: reason(join(linkedBin, "rust-analyzer")) }],
      });
    });

    it("is passed over for a usable program later on PATH", async () => {
      expect(await resolveBinary("rust-analyzer", workdir, workdir, `${cargoBin}:${onPath}`, env)).toEqual({
        found: false,
        looked: [...projectBins(), cargoBin, onPath],
        unusable: [expect.objectContaining({ path: join(cargoBin, "rust-analyzer") })],
      });
      program(join(onPath, "rust-analyzer"));
      expect(await resolveBinary("rust-analyzer", workdir, workdir, `${cargoBin}:${onPath}`, env)).toEqual({
        found: true,
        path: join(onPath, "rust-analyzer"),
      });
    });

    it("is usable when a toolchain has the program (which one is active is rustup's business)", async () => {
      expect(await resolveBinary("cargo", workdir, workdir, cargoBin, env)).toEqual({
        found: true,
        path: join(cargoBin, "cargo"),
      });
    });

    it("names at most five toolchains", async () => {
      const many = join(base, "many-toolchains");
      for (const name of ["g", "f", "e", "d", "c", "b", "a"])
        mkdirSync(join(many, "toolchains", `${name}-toolchain`, "bin"), { recursive: true });
      const result = await resolveBinary("rust-analyzer", workdir, workdir, cargoBin, { RUSTUP_HOME: many });
      expect(result).toMatchObject({
        found: false,
        unusable: [
          {
            reason: expect.stringContaining(
              "(`a-toolchain`, `b-toolchain`, `c-toolchain`, `d-toolchain`, `e-toolchain` and 2 more) has it",
            ),
          },
        ],
      });
      const five = join(base, "five-toolchains");
      for (const name of ["a", "b", "c", "d", "e"])
        mkdirSync(join(five, "toolchains", `${name}-toolchain`, "bin"), { recursive: true });
      const named = await resolveBinary("rust-analyzer", workdir, workdir, cargoBin, { RUSTUP_HOME: five });
      expect(named).toMatchObject({
        found: false,
        unusable: [
          {
            reason: expect.stringContaining(
              "(`a-toolchain`, `b-toolchain`, `c-toolchain`, `d-toolchain`, `e-toolchain`) has it",
            ),
          },
        ],
      });
    });

    it("says so when rustup has no toolchain at all", async () => {
      const empty = join(base, "no-toolchains");
      const result = await resolveBinary("rust-analyzer", workdir, workdir, cargoBin, { RUSTUP_HOME: empty });
      expect(result).toMatchObject({
        found: false,
        unusable: [
          {
            reason: `\`${join(cargoBin, "rust-analyzer")}\` is a rustup proxy without the \`rust-analyzer\` component (there is no toolchain in \`${join(empty, "toolchains")}\`), so it would fail instead of starting`,
          },
        ],
      });
    });

    it("finds the toolchains in ~/.rustup when RUSTUP_HOME is not set", async () => {
      const home = join(base, "home");
      program(join(home, ".rustup", "toolchains", "stable", "bin", "rust-analyzer"));
      expect(await resolveBinary("rust-analyzer", workdir, workdir, cargoBin, { HOME: home })).toEqual({
        found: true,
        path: join(cargoBin, "rust-analyzer"),
      });
    });

    it("is recognised as a link to a `rustup` in another directory (a system-wide rustup)", async () => {
      const systemRustup = join(base, "usr", "bin", "rustup");
      program(systemRustup);
      const userBin = join(base, "user-cargo", "bin");
      mkdirSync(userBin, { recursive: true });
      symlinkSync(systemRustup, join(userBin, "rust-analyzer"));
      expect(await resolveBinary("rust-analyzer", workdir, workdir, userBin, env)).toMatchObject({
        found: false,
        unusable: [{ path: join(userBin, "rust-analyzer") }],
      });
    });

    it("is not confused with a link to another program, nor with one that merely sits next to `rustup`", async () => {
      const release = join(base, "opt", "rust-analyzer", "bin", "rust-analyzer");
      program(release);
      const localBin = join(base, "local", "bin");
      program(join(localBin, "rustup"));
      symlinkSync(release, join(localBin, "rust-analyzer"));
      expect(await resolveBinary("rust-analyzer", workdir, workdir, localBin, env)).toEqual({
        found: true,
        path: join(localBin, "rust-analyzer"),
      });
      program(join(cargoBin, "cargo-nextest"));
      expect(await resolveBinary("cargo-nextest", workdir, workdir, cargoBin, env)).toEqual({
        found: true,
        path: join(cargoBin, "cargo-nextest"),
      });
    });
  });
});
