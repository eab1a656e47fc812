import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The cached virtualenv with pandas and matplotlib that `.ci/install.d/eval.sh` makes, or undefined
 * when it is missing (then the real-CPython suites skip, unless RUNBOUND_REQUIRE_REAL=1 makes that a
 * failure).
 */
export function testVirtualenv(): string | undefined {
  const venv = process.env["RUNBOUND_EVAL_TEST_VENV"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "runbound", "eval-venv");
  if (existsSync(join(venv, "bin", "python"))) return venv;
  if (process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(`The eval test virtualenv \`${venv}\` is missing; run \`. .ci/install.d/eval.sh\` to make it.`);
  }
  return undefined;
}

/** A temporary project directory (symlinks resolved); with `venv`, its `.venv` links to that virtualenv. */
export function fixtureProject(venv?: string): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-eval-")));
  if (venv !== undefined) symlinkSync(venv, join(workdir, ".venv"));
  return workdir;
}

/** A throwaway virtualenv that sees the base interpreter's pip, for tests that install into it. */
export function scratchVirtualenv(workdir: string): string {
  const venv = join(workdir, ".venv");
  execFileSync("python3", ["-m", "venv", "--without-pip", "--system-site-packages", venv]);
  try {
    execFileSync(join(venv, "bin", "python"), ["-m", "pip", "--version"], { stdio: "ignore" });
  } catch {
    execFileSync(join(venv, "bin", "python"), ["-m", "ensurepip", "--default-pip"], { stdio: "ignore" });
  }
  return venv;
}
