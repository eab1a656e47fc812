import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ENGINE_TRIPLES, engineTriple, processLibc, type Libc } from "./engine-triple.js";

const buildScript = fileURLToPath(new URL("../scripts/build-native.mjs", import.meta.url));

const platforms: [platform: string, arch: string, libc: Libc | undefined, triple: string][] = [
  ["linux", "x64", "glibc", "linux-x64-gnu"],
  ["linux", "x64", "musl", "linux-x64-musl"],
  ["linux", "arm64", "glibc", "linux-arm64-gnu"],
  ["linux", "arm64", "musl", "linux-arm64-musl"],
  ["darwin", "arm64", undefined, "darwin-arm64"],
  ["darwin", "x64", undefined, "darwin-x64"],
  ["win32", "x64", undefined, "win32-x64-msvc"],
  ["win32", "arm64", undefined, "win32-arm64-msvc"],
  ["freebsd", "x64", undefined, "freebsd-x64"],
];

describe("engineTriple", () => {
  it.each(platforms)("names %s %s (%s) %s", (platform, arch, libc, triple) => {
    expect(engineTriple(platform, arch, libc)).toBe(triple);
  });

  it("names every platform the build defines a package for", () => {
    const named = platforms.map(([platform, arch, libc]) => engineTriple(platform, arch, libc));
    for (const triple of ENGINE_TRIPLES) expect(named).toContain(triple);
  });
});

describe("processLibc", () => {
  it("answers glibc or musl on Linux, as the process report says, and nothing elsewhere", () => {
    if (process.platform !== "linux") {
      expect(processLibc()).toBeUndefined();
      return;
    }
    const report = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
    expect(processLibc()).toBe(report.header.glibcVersionRuntime ? "glibc" : "musl");
  });
});

describe("scripts/build-native.mjs", () => {
  it("names the same triples as the loader", async () => {
    // Through a variable: the script is plain JavaScript outside the tsconfig; importing it builds nothing.
    const script = (await import(buildScript)) as {
      ENGINE_TRIPLES: string[];
      engineTriple: typeof engineTriple;
    };
    expect(script.ENGINE_TRIPLES).toEqual([...ENGINE_TRIPLES]);
    for (const [platform, arch, libc, triple] of platforms)
      expect(script.engineTriple(platform, arch, libc)).toBe(triple);
  });

  // The build run as a real process on a platform it names no package for (the architecture faked
  // before the script starts): it refuses before looking for cargo.
  const onRiscv = ["--import", 'data:text/javascript,Object.defineProperty(process, "arch", { value: "riscv64" });'];
  const refusal =
    /astgrep-engine: no package is defined for this platform, (linux|darwin|win32|freebsd)-riscv64(-gnu|-musl|-msvc)?: the engine's packages are @runbound\/astgrep-engine-<triple> for linux-x64-gnu, linux-x64-musl, linux-arm64-gnu, darwin-arm64, darwin-x64, win32-x64-msvc, and this script builds only for the platform it runs on\. The native engine was not built; tool-astgrep searches with @ast-grep\/napi\./;

  it("refuses a platform with no package, saying so, and succeeds so the repository still builds", () => {
    const run = spawnSync(process.execPath, [...onRiscv, buildScript], {
      encoding: "utf8",
      env: { ...process.env, RUNBOUND_REQUIRE_REAL: "0" },
    });
    expect(run.stdout).toMatch(refusal);
    expect(run.status).toBe(0);
  });

  it("fails that refusal under RUNBOUND_REQUIRE_REAL=1", () => {
    const run = spawnSync(process.execPath, [...onRiscv, buildScript], {
      encoding: "utf8",
      env: { ...process.env, RUNBOUND_REQUIRE_REAL: "1" },
    });
    expect(run.stdout).toMatch(refusal);
    expect(run.stdout).toContain("RUNBOUND_REQUIRE_REAL=1 requires the engine: failing.");
    expect(run.status).toBe(1);
  });
});
