import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * An environment whose PATH finds first a `rustc` that notes each run in a file and then runs
 * `realRustc` with the same arguments, and how many runs were noted so far.
 */
export function countedRustc(realRustc: string): { env: NodeJS.ProcessEnv; runs(): number } {
  const bin = mkdtempSync(join(tmpdir(), "runbound-counted-rustc-"));
  const log = join(bin, "runs.log");
  writeFileSync(log, "");
  writeFileSync(join(bin, "rustc"), `#!/bin/sh\necho run >> '${log}'\nexec '${realRustc}' "$@"\n`);
  chmodSync(join(bin, "rustc"), 0o755);
  return {
    env: { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}` },
    runs: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line === "run").length,
  };
}

/** A directory with a Cargo.toml, in a fresh temporary folder. */
export function cargoProject(): string {
  const root = join(mkdtempSync(join(tmpdir(), "runbound-cargo-project-")), "project");
  mkdirSync(root);
  writeFileSync(join(root, "Cargo.toml"), '[package]\nname = "p"\n');
  return root;
}
