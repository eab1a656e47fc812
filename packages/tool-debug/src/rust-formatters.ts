import { access, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { runToCompletion } from "@runbound/runtime-kit";
import { createLaunchSetupCache, type LaunchSetupCache } from "./launch-setup-cache.js";

/**
 * The lldb commands that load the Rust toolchain's own data formatters, as `rust-lldb` does, for a
 * Cargo project (`Cargo.toml` in `root`): without them lldb shows a `Vec` or `String` as an address
 * (`alloc::vec::Vec<int, …> @ 0x7ffc…`) instead of its length and elements. The toolchain is the one
 * `rustc --print sysroot` names in `root` (so a rust-toolchain file there is honoured), asked once per
 * root and toolchain choice for the life of `cache` (the rustup proxy takes tens of milliseconds, more
 * on a busy machine). Empty when there is no Cargo.toml, no rustc, or a toolchain without the
 * formatter files: lldb still works then.
 */
export async function rustFormatterCommands(
  root: string,
  env: NodeJS.ProcessEnv,
  cache: LaunchSetupCache = createLaunchSetupCache(),
): Promise<string[]> {
  const directory = await rustFormatterDirectory(root, env, cache);
  if (directory === undefined) return [];
  const script = join(directory, "lldb_lookup.py");
  const commands = join(directory, "lldb_commands");
  return [`command script import ${quoted(script)}`, `command source -s true ${quoted(commands)}`];
}

/**
 * The toolchain's folder of lldb formatter files (`<sysroot>/lib/rustlib/etc`) for a Cargo project in
 * `root`, as {@link rustFormatterCommands} loads them; undefined where those commands are empty. A
 * sandboxed lldb reads it.
 */
export async function rustFormatterDirectory(
  root: string,
  env: NodeJS.ProcessEnv,
  cache: LaunchSetupCache = createLaunchSetupCache(),
): Promise<string | undefined> {
  if (!(await exists(join(root, "Cargo.toml")))) return undefined;
  const key = await toolchainKey(root, env);
  const sysroot = await cache.remember(key, () => askSysroot(root, env));
  if (sysroot === undefined) return undefined;
  const directory = join(sysroot, "lib", "rustlib", "etc");
  if (!(await exists(join(directory, "lldb_lookup.py"))) || !(await exists(join(directory, "lldb_commands")))) {
    // A toolchain without the files, or one removed since rustc named it: ask again next time.
    cache.forget(key);
    return undefined;
  }
  return directory;
}

function askSysroot(root: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return runToCompletion({ command: "rustc", args: ["--print", "sysroot"], cwd: root, env, timeoutMs: 5_000 }).then(
    (run) => {
      const sysroot = run.stdout.trim();
      return run.ending === "exited" && run.exit.code === 0 && sysroot.length > 0 ? sysroot : undefined;
    },
    () => undefined,
  );
}

/**
 * Everything that picks the toolchain rustc runs in `root`, as rustup decides it: the rustc PATH
 * finds, `RUSTUP_TOOLCHAIN`, rustup's settings file (where `rustup default` and `rustup override set`
 * write) and the nearest `rust-toolchain(.toml)` from `root` up. A change to any of them is a new key.
 */
async function toolchainKey(root: string, env: NodeJS.ProcessEnv): Promise<string> {
  const rustupHome = env["RUSTUP_HOME"] ?? join(env["HOME"] ?? homedir(), ".rustup");
  const settings = await stat(join(rustupHome, "settings.toml")).then(
    (info) => `${info.mtimeMs}:${info.size}`,
    () => "",
  );
  return JSON.stringify([
    root,
    env["PATH"] ?? "",
    env["RUSTUP_TOOLCHAIN"] ?? "",
    rustupHome,
    settings,
    await nearestToolchainFiles(root),
  ]);
}

async function nearestToolchainFiles(root: string): Promise<string[]> {
  for (let directory = root; ; directory = dirname(directory)) {
    const files = await Promise.all(
      ["rust-toolchain", "rust-toolchain.toml"].map((name) =>
        readFile(join(directory, name), "utf8").then(
          (text) => `${join(directory, name)}\0${text}`,
          () => undefined,
        ),
      ),
    );
    const found = files.filter((file) => file !== undefined);
    if (found.length > 0 || dirname(directory) === directory) return found;
  }
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
