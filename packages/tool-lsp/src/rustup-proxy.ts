import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

async function isRustupProxy(path: string): Promise<boolean> {
  try {
    if ((await lstat(path)).isSymbolicLink()) return basename(await realpath(path)) === "rustup";
    // rustup makes its proxies hard links of itself where the file system allows it.
    const [program, rustup] = await Promise.all([stat(path), stat(join(dirname(path), "rustup"))]);
    return program.dev === rustup.dev && program.ino === rustup.ino;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/**
 * Why the program at `path` cannot run although it exists, when it is a rustup proxy for a component
 * no installed toolchain has; `undefined` when it is not a proxy, or when some toolchain has it.
 *
 * rustup puts every component's name in `~/.cargo/bin` as a proxy (a link to `rustup`) that runs the
 * active toolchain's program, so `rust-analyzer` is on PATH even without the component and fails
 * with `error: Unknown binary 'rust-analyzer' in official toolchain …`. Reading the toolchain
 * directories answers without starting anything (`status` never spawns) and is never stale after
 * `rustup component add`. Which toolchain is active (overrides, `rust-toolchain.toml`) is rustup's
 * business: when any toolchain has the program, the proxy is given the benefit of the doubt.
 */
export async function missingRustupComponent(path: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (!(await isRustupProxy(path))) return undefined;
  const program = basename(path);
  const toolchains = join(env["RUSTUP_HOME"] ?? join(env["HOME"] ?? homedir(), ".rustup"), "toolchains");
  const names = await readdir(toolchains).catch(() => [] as string[]);
  for (const name of names) {
    if (await isFile(join(toolchains, name, "bin", program))) return undefined;
  }
  const checked =
    names.length === 0
      ? `there is no toolchain in \`${toolchains}\``
      : `none of the toolchains in \`${toolchains}\` (${names
          .slice(0, 5)
          .map((name) => `\`${name}\``)
          .join(", ")}${names.length > 5 ? ` and ${names.length - 5} more` : ""}) has it`;
  return `\`${path}\` is a rustup proxy without the \`${program}\` component (${checked}), so it would fail instead of starting`;
}
