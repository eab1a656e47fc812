import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** The cached virtualenvs `.ci/install.d/eval.sh` makes: pandas 2 with matplotlib, and pandas 3. */
export type TestVirtualenvKind = "pandas2" | "pandas3";

const testVirtualenvs: Record<TestVirtualenvKind, { variable: string; folder: string }> = {
  pandas2: { variable: "RUNBOUND_EVAL_TEST_VENV", folder: "eval-venv" },
  pandas3: { variable: "RUNBOUND_EVAL_TEST_VENV_PANDAS3", folder: "eval-venv-pandas3" },
};

/**
 * One of the cached virtualenvs that `.ci/install.d/eval.sh` makes (default: pandas 2 and
 * matplotlib), or undefined when it is missing (then the real-CPython suites skip, unless
 * RUNBOUND_REQUIRE_REAL=1 makes that a failure).
 */
export function testVirtualenv(kind: TestVirtualenvKind = "pandas2"): string | undefined {
  const { variable, folder } = testVirtualenvs[kind];
  const venv =
    process.env[variable] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "runbound", folder);
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
