import { execFile } from "node:child_process";
import { access } from "node:fs/promises";
import { join } from "node:path";

/**
 * The lldb commands that load the Rust toolchain's own data formatters, as `rust-lldb` does, for a
 * Cargo project (`Cargo.toml` in `root`): without them lldb shows a `Vec` or `String` as an address
 * (`alloc::vec::Vec<int, …> @ 0x7ffc…`) instead of its length and elements. The toolchain is the one
 * `rustc --print sysroot` names in `root` (so a rust-toolchain file there is honoured). Empty when
 * there is no Cargo.toml, no rustc, or a toolchain without the formatter files: lldb still works then.
 */
export async function rustFormatterCommands(root: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (!(await exists(join(root, "Cargo.toml")))) return [];
  const sysroot = await new Promise<string | undefined>((resolve) => {
    execFile("rustc", ["--print", "sysroot"], { cwd: root, env, timeout: 5_000 }, (error, stdout) => resolve(error === null ? stdout.trim() : undefined));
  });
  if (sysroot === undefined || sysroot.length === 0) return [];
  const directory = join(sysroot, "lib", "rustlib", "etc");
  const script = join(directory, "lldb_lookup.py");
  const commands = join(directory, "lldb_commands");
  if (!(await exists(script)) || !(await exists(commands))) return [];
  return [`command script import ${quoted(script)}`, `command source -s true ${quoted(commands)}`];
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

// lldb's command line splits on spaces; a double-quoted argument keeps a path with spaces whole.
function quoted(path: string): string {
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
