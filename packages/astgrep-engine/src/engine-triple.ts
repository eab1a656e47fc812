import { readFileSync } from "node:fs";

/**
 * The platforms the engine's build names a package for, as napi-rs names its targets: `<os>-<cpu>`,
 * plus the C library on Linux (`gnu`, `musl`) and the toolchain on Windows (`msvc`).
 * `scripts/build-native.mjs` has the same list (a test keeps them equal).
 */
export const ENGINE_TRIPLES = [
  "linux-x64-gnu",
  "linux-x64-musl",
  "linux-arm64-gnu",
  "darwin-arm64",
  "darwin-x64",
  "win32-x64-msvc",
] as const;

/** The C library of a Linux process. */
export type Libc = "glibc" | "musl";

/**
 * The napi-rs triple of a platform, e.g. `linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`. The
 * package of the engine binary for it is `@runbound/astgrep-engine-<triple>`; a platform outside
 * {@link ENGINE_TRIPLES} still gets a triple, so a refusal can name it.
 */
export function engineTriple(platform: string, arch: string, libc: Libc | undefined): string {
  if (platform === "linux") return `linux-${arch}-${libc === "musl" ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/**
 * This process's C library on Linux (`undefined` elsewhere), detected as napi-rs's generated loaders
 * do: `/usr/bin/ldd` is a script that names musl on musl systems; without it, the process report
 * has `glibcVersionRuntime` only on glibc, and lists a musl loader among the shared objects on musl.
 * Read when called, never at import.
 */
export function processLibc(): Libc | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return readFileSync("/usr/bin/ldd", "utf8").includes("musl") ? "musl" : "glibc";
  } catch {
    // No ldd (a minimal image): ask the report below.
  }
  const report = process.report?.getReport() as
    { header?: { glibcVersionRuntime?: string }; sharedObjects?: string[] } | undefined;
  if (report?.header?.glibcVersionRuntime) return "glibc";
  const musl = report?.sharedObjects?.some((file) => file.includes("libc.musl-") || file.includes("ld-musl-"));
  return musl ? "musl" : "glibc";
}

/** The triple of the running process, e.g. `linux-x64-gnu`. */
export function processTriple(): string {
  return engineTriple(process.platform, process.arch, processLibc());
}
