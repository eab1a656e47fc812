import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
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

/**
 * Build a pure-Python wheel `name-version-py3-none-any.whl` holding `name/__init__.py` with `VALUE = value`,
 * into `directory` (made by hand: zip + metadata, so no build backend or network is needed).
 */
export function buildWheel(directory: string, name: string, version: string, value: string): string {
  mkdirSync(directory, { recursive: true });
  const script = `
import base64, hashlib, sys, zipfile
directory, name, version, value = sys.argv[1:5]
info = f"{name}-{version}.dist-info"
files = {
    f"{name}/__init__.py": f"VALUE = {value!r}\\n",
    f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
    f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: runbound-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
def digest(text):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
record = "".join(f"{path},{digest(text)},{len(text.encode())}\\n" for path, text in files.items()) + f"{info}/RECORD,,\\n"
path = f"{directory}/{name}-{version}-py3-none-any.whl"
with zipfile.ZipFile(path, "w") as wheel:
    for member, text in files.items():
        wheel.writestr(member, text)
    wheel.writestr(f"{info}/RECORD", record)
print(path)
`;
  const scriptPath = join(directory, "build_wheel.py");
  writeFileSync(scriptPath, script);
  return execFileSync("python3", [scriptPath, directory, name, version, value], { encoding: "utf8" }).trim();
}
