// Builds the native engine: `cargo build --release` of this package's crate, and the library copied
// to dist/astgrep-engine.<platform>-<arch>.node, where the loader looks for it. Without cargo the
// package still builds (tool-astgrep then searches with @ast-grep/napi), unless RUNBOUND_REQUIRE_REAL=1
// asks for every real component.
/* global console, performance, process -- a Node script; the repository's lint config gives Node globals only to bench/ */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const crateName = "runbound_astgrep_engine";
const platform = `${process.platform}-${process.arch}`;
const output = join(packageRoot, "dist", `astgrep-engine.${platform}.node`);
const shown = relative(packageRoot, output);
const required = process.env.RUNBOUND_REQUIRE_REAL === "1";
const howToBuild =
  "install Rust 1.90 or newer with cargo (https://rustup.rs) and run `npm run build -w @runbound/astgrep-engine`";

function say(message) {
  console.log(`astgrep-engine: ${message}`);
}

/** The file cargo writes for a cdylib on this platform. */
function libraryFile() {
  if (process.platform === "win32") return `${crateName}.dll`;
  if (process.platform === "darwin") return `lib${crateName}.dylib`;
  return `lib${crateName}.so`;
}

/** Outside the checkout, so every clone and CI run reuses the compiled dependencies (minutes of LTO). */
function targetDirectory() {
  if (process.env.CARGO_TARGET_DIR) return resolve(process.env.CARGO_TARGET_DIR);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "runbound", "cargo-target");
}

/** The newest modification time of what the library is built from. */
function newestSourceTime() {
  const sources = ["Cargo.toml", "Cargo.lock", "build.rs"].map((name) => join(packageRoot, name));
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".rs")) sources.push(path);
    }
  };
  walk(join(packageRoot, "src"));
  return Math.max(...sources.map((path) => statSync(path).mtimeMs));
}

/** cargo on PATH, else where rustup puts it (a non-login shell may not have ~/.cargo/bin on PATH). */
function findCargo() {
  const candidates = [
    "cargo",
    join(
      process.env.CARGO_HOME || join(homedir(), ".cargo"),
      "bin",
      process.platform === "win32" ? "cargo.exe" : "cargo",
    ),
  ];
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ["--version"], { encoding: "utf8" });
    if (probe.status === 0) return { command: candidate, version: probe.stdout.trim() };
  }
  return undefined;
}

/** Run cargo in the package, saying why the build stopped when it fails. */
function runCargo(command, args, target) {
  const run = spawnSync(command, args, {
    cwd: packageRoot,
    stdio: "inherit",
    env: { ...process.env, CARGO_TARGET_DIR: target },
  });
  if (run.status === 0) return true;
  const reason = run.error ? run.error.message : `exit status ${run.status ?? run.signal}`;
  say(
    `cargo ${args.slice(0, 2).join(" ")} failed (${reason}; its output is above). Fix the Rust toolchain (Rust 1.90 or newer, and a C compiler for the grammars), or set RUNBOUND_ASTGREP_ENGINE=napi to build without the engine.`,
  );
  return false;
}

function build() {
  if (existsSync(output) && statSync(output).mtimeMs >= newestSourceTime()) {
    say(`${shown} is newer than every Rust source, Cargo.toml and Cargo.lock; cargo not run.`);
    return 0;
  }
  if (process.env.RUNBOUND_ASTGREP_ENGINE === "napi") {
    say(`RUNBOUND_ASTGREP_ENGINE=napi: the native engine was not built; tool-astgrep searches with @ast-grep/napi.`);
    return 0;
  }
  const cargo = findCargo();
  if (cargo === undefined) {
    const stale = existsSync(output)
      ? ` The ${shown} already there was built from older sources and is left as it is.`
      : "";
    say(
      `cargo was not found, so the native engine was not built (no ${shown}); tool-astgrep searches with @ast-grep/napi without it.${stale} To build it, ${howToBuild}.`,
    );
    if (required) say("RUNBOUND_REQUIRE_REAL=1 requires the engine: failing.");
    return required ? 1 : 0;
  }
  const target = targetDirectory();
  say(`building with ${cargo.version} into ${target}`);
  const started = performance.now();
  const library = join(target, "release", libraryFile());
  // Checkouts sharing the target directory share this library's path in it too, and cargo calls one
  // checkout's build fresh after another checkout overwrote the library (it compares mtimes, and the
  // build is reproducible, so the file itself cannot tell). A stamp names the checkout that built it
  // last; built from another one, or unknown, this package is cleaned so that cargo compiles it.
  const stamp = join(target, "release", ".runbound-astgrep-engine-checkout");
  const checkout = realpathSync(packageRoot);
  const lastBuiltFrom = existsSync(stamp) ? readFileSync(stamp, "utf8") : undefined;
  if (lastBuiltFrom !== checkout && existsSync(library)) {
    say(`${library} was last built from ${lastBuiltFrom ?? "an unknown checkout"}; rebuilding it from this one.`);
    if (!runCargo(cargo.command, ["clean", "--release", "--package", "runbound-astgrep-engine"], target)) return 1;
  }
  if (!runCargo(cargo.command, ["build", "--release", "--locked"], target)) return 1;
  if (!existsSync(library)) {
    say(
      `cargo reported success but ${library} is not there; is CARGO_BUILD_TARGET set? Unset it, or copy the library to ${shown} yourself.`,
    );
    return 1;
  }
  writeFileSync(stamp, checkout);
  mkdirSync(dirname(output), { recursive: true });
  // Copied under another name and renamed, so a process loading the engine never sees half a file.
  const partial = `${output}.partial`;
  copyFileSync(library, partial);
  renameSync(partial, output);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (statSync(output).size / 1e6).toFixed(1);
  say(`${shown} built in ${seconds} s (${megabytes} MB)`);
  return 0;
}

process.exitCode = build();
