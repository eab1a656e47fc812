import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findExecutable, pathDirectories } from "@runbound/runtime-kit";
import { createLaunchSetupCache } from "./launch-setup-cache.js";
import { rustFormatterCommands } from "./rust-formatters.js";
import { cargoProject, countedRustc } from "./test-support/counted-rustc.js";
import { realAdapterAvailable } from "./test-support/real-adapters.js";

// A project and a PATH whose only `rustc` prints `sysroot`, as the rustup proxy does.
function project(options: { cargoToml: boolean; sysroot?: string; formatterFiles?: readonly string[] }): {
  root: string;
  env: NodeJS.ProcessEnv;
} {
  const base = mkdtempSync(join(tmpdir(), "runbound-rust-formatters-"));
  const root = join(base, "project");
  mkdirSync(root);
  if (options.cargoToml) writeFileSync(join(root, "Cargo.toml"), '[package]\nname = "p"\n');
  const bin = join(base, "bin");
  mkdirSync(bin);
  if (options.sysroot !== undefined) {
    writeFileSync(
      join(bin, "rustc"),
      `#!/bin/sh\n[ "$1 $2" = "--print sysroot" ] && printf '%s\\n' '${options.sysroot}'\n`,
    );
    chmodSync(join(bin, "rustc"), 0o755);
    const etc = join(options.sysroot, "lib", "rustlib", "etc");
    if (options.formatterFiles !== undefined) mkdirSync(etc, { recursive: true });
    for (const file of options.formatterFiles ?? []) writeFileSync(join(etc, file), "");
  }
  return { root, env: { PATH: bin } };
}

describe("rustFormatterCommands", () => {
  it("loads the toolchain's lldb_lookup.py and lldb_commands, paths quoted", async () => {
    const sysroot = join(mkdtempSync(join(tmpdir(), "runbound-sysroot-")), 'tool "chain" \\x');
    const { root, env } = project({ cargoToml: true, sysroot, formatterFiles: ["lldb_lookup.py", "lldb_commands"] });
    const etc = join(sysroot, "lib", "rustlib", "etc").replaceAll("\\", "\\\\").replaceAll('"', '\\"');
    expect(await rustFormatterCommands(root, env)).toEqual([
      `command script import "${etc}/lldb_lookup.py"`,
      `command source -s true "${etc}/lldb_commands"`,
    ]);
  });

  it("is empty without a Cargo.toml, without rustc, or with a toolchain lacking either file", async () => {
    // A toolchain that would do, in a project that is not Cargo's.
    const notCargo = project({
      cargoToml: false,
      sysroot: mkdtempSync(join(tmpdir(), "runbound-sysroot-")),
      formatterFiles: ["lldb_lookup.py", "lldb_commands"],
    });
    expect(await rustFormatterCommands(notCargo.root, notCargo.env)).toEqual([]);
    const withoutRustc = project({ cargoToml: true });
    expect(await rustFormatterCommands(withoutRustc.root, withoutRustc.env)).toEqual([]);
    for (const only of ["lldb_lookup.py", "lldb_commands"]) {
      const partial = project({
        cargoToml: true,
        sysroot: mkdtempSync(join(tmpdir(), "runbound-sysroot-")),
        formatterFiles: [only],
      });
      expect(await rustFormatterCommands(partial.root, partial.env)).toEqual([]);
    }
  });

  it("does not keep a sysroot that lacked the formatter files: the next launch asks rustc again", async () => {
    const sysroot = mkdtempSync(join(tmpdir(), "runbound-sysroot-"));
    const { root, env } = project({ cargoToml: true, sysroot, formatterFiles: ["lldb_lookup.py"] });
    const cache = createLaunchSetupCache();
    expect(await rustFormatterCommands(root, env, cache)).toEqual([]);
    // rustc now names another sysroot (the toolchain was reinstalled): a kept answer would still point at the old one.
    const other = mkdtempSync(join(tmpdir(), "runbound-sysroot-"));
    mkdirSync(join(other, "lib", "rustlib", "etc"), { recursive: true });
    for (const file of ["lldb_lookup.py", "lldb_commands"])
      writeFileSync(join(other, "lib", "rustlib", "etc", file), "");
    writeFileSync(join(env["PATH"]!, "rustc"), `#!/bin/sh\nprintf '%s\\n' '${other}'\n`);
    expect(await rustFormatterCommands(root, env, cache)).toEqual([
      `command script import "${other}/lib/rustlib/etc/lldb_lookup.py"`,
      `command source -s true "${other}/lib/rustlib/etc/lldb_commands"`,
    ]);
  });

  it("asks again when anything that picks the toolchain changes, and not otherwise", async () => {
    const sysroot = mkdtempSync(join(tmpdir(), "runbound-sysroot-"));
    const fake = project({ cargoToml: true, sysroot, formatterFiles: ["lldb_lookup.py", "lldb_commands"] });
    const { env: counting, runs } = countedRustc(join(fake.env["PATH"]!, "rustc"));
    const home = mkdtempSync(join(tmpdir(), "runbound-home-"));
    mkdirSync(join(home, ".rustup"));
    writeFileSync(join(home, ".rustup", "settings.toml"), 'default_toolchain = "stable"\n');
    const env = { PATH: counting["PATH"]!, HOME: home };
    const cache = createLaunchSetupCache();
    const asked = async (changed: NodeJS.ProcessEnv = env, root = fake.root): Promise<number> => {
      const before = runs();
      expect(await rustFormatterCommands(root, changed, cache)).toHaveLength(2);
      return runs() - before;
    };
    expect(await asked()).toBe(1);
    expect(await asked()).toBe(0);
    expect(await asked({ ...env, RUSTUP_TOOLCHAIN: "stable" })).toBe(1);
    expect(await asked({ ...env, RUSTUP_TOOLCHAIN: "stable" })).toBe(0);
    expect(await asked({ ...env, RUSTUP_TOOLCHAIN: "nightly" })).toBe(1);
    expect(await asked({ ...env, PATH: `${env.PATH}:/nonexistent` })).toBe(1);
    // `rustup default` and `rustup override set` rewrite the settings file, under HOME or RUSTUP_HOME.
    writeFileSync(join(home, ".rustup", "settings.toml"), 'default_toolchain = "nightly"\n');
    expect(await asked()).toBe(1);
    const rustupHome = mkdtempSync(join(tmpdir(), "runbound-rustup-home-"));
    expect(await asked({ ...env, RUSTUP_HOME: rustupHome })).toBe(1);
    writeFileSync(join(rustupHome, "settings.toml"), 'default_toolchain = "beta"\n');
    expect(await asked({ ...env, RUSTUP_HOME: rustupHome })).toBe(1);
    expect(await asked({ ...env, RUSTUP_HOME: rustupHome })).toBe(0);
    // A legacy `rust-toolchain` file in a parent directory counts as one in the root does.
    const parent = dirname(fake.root);
    writeFileSync(join(parent, "rust-toolchain"), "nightly\n");
    expect(await asked()).toBe(1);
    expect(await asked()).toBe(0);
    writeFileSync(join(parent, "rust-toolchain"), "beta\n");
    expect(await asked()).toBe(1);
  });

  it("is empty when rustc fails, whatever it printed", async () => {
    const sysroot = mkdtempSync(join(tmpdir(), "runbound-sysroot-"));
    const { root, env } = project({ cargoToml: true, sysroot, formatterFiles: ["lldb_lookup.py", "lldb_commands"] });
    writeFileSync(join(env["PATH"]!, "rustc"), `#!/bin/sh\nprintf '%s\\n' '${sysroot}'\nexit 1\n`);
    expect(await rustFormatterCommands(root, env)).toEqual([]);
  });

  it("is empty when rustc prints no sysroot", async () => {
    const { root, env } = project({ cargoToml: true, sysroot: "" });
    expect(await rustFormatterCommands(root, env)).toEqual([]);
  });
});

const realRustc = await findExecutable(["rustc"], pathDirectories(process.env["PATH"]));
const rustcAvailable = realAdapterAvailable("rustc", realRustc !== undefined);

function countedProject(): { root: string; env: NodeJS.ProcessEnv; runs(): number } {
  return { root: cargoProject(), ...countedRustc(realRustc!) };
}

describe.runIf(rustcAvailable)("rustFormatterCommands with the real rustc", () => {
  it("asks rustc once per root and toolchain for the life of a cache, and again with a new cache", async () => {
    const { root, env, runs } = countedProject();
    const cache = createLaunchSetupCache();
    const first = await rustFormatterCommands(root, env, cache);
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^command script import ".*\/lib\/rustlib\/etc\/lldb_lookup\.py"$/);
    expect(await rustFormatterCommands(root, env, cache)).toEqual(first);
    expect(
      await Promise.all([rustFormatterCommands(root, env, cache), rustFormatterCommands(root, env, cache)]),
    ).toEqual([first, first]);
    expect(runs()).toBe(1);
    expect(await rustFormatterCommands(root, env, createLaunchSetupCache())).toEqual(first);
    expect(runs()).toBe(2);
  });

  it("asks again when the toolchain choice may have changed: a rust-toolchain file, RUSTUP_TOOLCHAIN, another root", async () => {
    const { root, env, runs } = countedProject();
    const cache = createLaunchSetupCache();
    const first = await rustFormatterCommands(root, env, cache);
    expect(runs()).toBe(1);
    // The toolchain rustc already runs, named by its sysroot's folder (rustup names toolchains so).
    const sysroot = execFileSync(realRustc!, ["--print", "sysroot"], { cwd: root, env, encoding: "utf8" }).trim();
    const toolchain = basename(sysroot);
    writeFileSync(join(root, "rust-toolchain.toml"), `[toolchain]\nchannel = "${toolchain}"\n`);
    expect(await rustFormatterCommands(root, env, cache)).toEqual(first);
    expect(runs()).toBe(2);
    expect(await rustFormatterCommands(root, env, cache)).toEqual(first);
    expect(runs()).toBe(2);
    writeFileSync(join(root, "rust-toolchain.toml"), `[toolchain]\nchannel = "${toolchain}"\ncomponents = []\n`);
    expect(await rustFormatterCommands(root, env, cache)).toEqual(first);
    expect(runs()).toBe(3);
    expect(await rustFormatterCommands(root, { ...env, RUSTUP_TOOLCHAIN: toolchain }, cache)).toEqual(first);
    expect(runs()).toBe(4);
    const nested = join(root, "crates", "inner");
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, "Cargo.toml"), '[package]\nname = "inner"\n');
    expect(await rustFormatterCommands(nested, env, cache)).toEqual(first);
    expect(runs()).toBe(5);
  });
});
