import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "..", "__fixtures__", "rust-app");

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A digest of the fixture's file names and contents: a changed source gets a directory of its own. */
function fixtureDigest(): string {
  const hash = createHash("sha256");
  for (const file of filesUnder(fixture))
    hash.update(relative(fixture, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The rust-app fixture built with `cargo build` (debug, offline: it has no dependencies), in a temp
 * directory named after the sources' digest, so an unchanged fixture is built once and later calls
 * only let cargo see it is fresh. The directory stays put because rustc writes its absolute source
 * paths into the debug info, and lldb binds breakpoints by those paths: a copy elsewhere would not bind.
 * The suites that use it only read it. @returns the workdir, with the binary at `target/debug/rust-app`.
 */
export function builtRustFixture(cargo = "cargo"): string {
  const workdir = join(tmpdir(), `runbound-debug-rust-app-${fixtureDigest()}`);
  if (!existsSync(workdir)) {
    // Copied beside it and renamed, so a run that dies half-way never leaves a partial copy to reuse.
    const staging = mkdtempSync(`${workdir}.partial-`);
    cpSync(fixture, staging, { recursive: true });
    try {
      renameSync(staging, workdir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(workdir)) throw error;
    }
  }
  execFileSync(cargo, ["build", "--offline", "--quiet"], {
    cwd: workdir,
    env: { ...process.env, CARGO_TARGET_DIR: join(workdir, "target") },
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 300_000,
  });
  return workdir;
}
