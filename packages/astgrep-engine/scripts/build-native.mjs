// Builds the native engine: `cargo build --release` of this package's crate, and the library copied
// into the package of the platform it runs on, the napi-rs way: packages/astgrep-engine-<triple>/
// astgrep-engine.<triple>.node (linux-x64-gnu, linux-x64-musl, linux-arm64-gnu, darwin-arm64,
// darwin-x64, win32-x64-msvc), where the loader looks for it. It builds only for the platform it runs
// on (no cross-compiling: a musl binary is built on a musl system), and refuses a platform with no
// package name. Without cargo, or on such a platform, the package still builds (tool-astgrep then
// searches with @ast-grep/napi), unless RUNBOUND_REQUIRE_REAL=1 asks for every real component.
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
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The platforms a package is named for; src/engine-triple.ts has the same list (a test keeps them equal). */
export const ENGINE_TRIPLES = [
  "linux-x64-gnu",
  "linux-x64-musl",
  "linux-arm64-gnu",
  "darwin-arm64",
  "darwin-x64",
  "win32-x64-msvc",
];

/** The napi-rs triple of a platform, as src/engine-triple.ts names it. */
export function engineTriple(platform, arch, libc) {
  if (platform === "linux") return `linux-${arch}-${libc === "musl" ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** This process's C library on Linux, detected as napi-rs's loaders (and src/engine-triple.ts) do. */
function processLibc() {
  if (process.platform !== "linux") return undefined;
  try {
    return readFileSync("/usr/bin/ldd", "utf8").includes("musl") ? "musl" : "glibc";
  } catch {
    // No ldd: ask the process report.
  }
  const report = process.report?.getReport();
  if (report?.header?.glibcVersionRuntime) return "glibc";
  const musl = report?.sharedObjects?.some((file) => file.includes("libc.musl-") || file.includes("ld-musl-"));
  return musl ? "musl" : "glibc";
}

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const crateName = "runbound_astgrep_engine";
const triple = engineTriple(process.platform, process.arch, processLibc());
const platformPackage = join(packageRoot, "..", `astgrep-engine-${triple}`);
const output = join(platformPackage, `astgrep-engine.${triple}.node`);
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

/** Binaries older builds copied to dist/, which the loader no longer reads and the tarball must not carry. */
function removeOlderBuildsBinaries() {
  const dist = join(packageRoot, "dist");
  if (!existsSync(dist)) return;
  for (const name of readdirSync(dist).filter((entry) => /^astgrep-engine\..+\.node(\.partial)?$/.test(entry))) {
    rmSync(join(dist, name), { force: true });
    say(
      `removed dist/${name}, an older build's binary (the engine is now built into ${relative(packageRoot, platformPackage)}/)`,
    );
  }
}

function build() {
  removeOlderBuildsBinaries();
  if (!ENGINE_TRIPLES.includes(triple)) {
    say(
      `no package is defined for this platform, ${triple}: the engine's packages are @runbound/astgrep-engine-<triple> for ${ENGINE_TRIPLES.join(", ")}, and this script builds only for the platform it runs on. The native engine was not built; tool-astgrep searches with @ast-grep/napi. To add the platform, add its triple to ENGINE_TRIPLES here and in src/engine-triple.ts, and a package beside packages/astgrep-engine-linux-x64-gnu.`,
    );
    if (required) say("RUNBOUND_REQUIRE_REAL=1 requires the engine: failing.");
    return required ? 1 : 0;
  }
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
  if (!existsSync(join(platformPackage, "package.json"))) {
    say(
      `${relative(packageRoot, platformPackage)}/ is no package of this repository (only linux-x64-gnu is published); the binary written there is a local build, which the loader finds in this checkout.`,
    );
  }
  mkdirSync(platformPackage, { recursive: true });
  // Copied under another name and renamed, so a process loading the engine never sees half a file.
  const partial = `${output}.partial`;
  copyFileSync(library, partial);
  renameSync(partial, output);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (statSync(output).size / 1e6).toFixed(1);
  say(`${shown} built in ${seconds} s (${megabytes} MB)`);
  return 0;
}

// Run as a script; imported (by the loader's tests, for ENGINE_TRIPLES and engineTriple), it builds nothing.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = build();
}
