import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rustFormatterCommands } from "./rust-formatters.js";

// A project and a PATH whose only `rustc` prints `sysroot`, as the rustup proxy does.
function project(options: { cargoToml: boolean; sysroot?: string; formatterFiles?: readonly string[] }): { root: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(tmpdir(), "runbound-rust-formatters-"));
  const root = join(base, "project");
  mkdirSync(root);
  if (options.cargoToml) writeFileSync(join(root, "Cargo.toml"), '[package]\nname = "p"\n');
  const bin = join(base, "bin");
  mkdirSync(bin);
  if (options.sysroot !== undefined) {
    writeFileSync(join(bin, "rustc"), `#!/bin/sh\n[ "$1 $2" = "--print sysroot" ] && printf '%s\\n' '${options.sysroot}'\n`);
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
    expect(await rustFormatterCommands(root, env)).toEqual([`command script import "${etc}/lldb_lookup.py"`, `command source -s true "${etc}/lldb_commands"`]);
  });

  it("is empty without a Cargo.toml, without rustc, or with a toolchain lacking either file", async () => {
    // A toolchain that would do, in a project that is not Cargo's.
    const notCargo = project({ cargoToml: false, sysroot: mkdtempSync(join(tmpdir(), "runbound-sysroot-")), formatterFiles: ["lldb_lookup.py", "lldb_commands"] });
    expect(await rustFormatterCommands(notCargo.root, notCargo.env)).toEqual([]);
    const withoutRustc = project({ cargoToml: true });
    expect(await rustFormatterCommands(withoutRustc.root, withoutRustc.env)).toEqual([]);
    for (const only of ["lldb_lookup.py", "lldb_commands"]) {
      const partial = project({ cargoToml: true, sysroot: mkdtempSync(join(tmpdir(), "runbound-sysroot-")), formatterFiles: [only] });
      expect(await rustFormatterCommands(partial.root, partial.env)).toEqual([]);
    }
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
