import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { engineBinaryPath, loadAstGrepEngine, loadEngineBinary, tryLoadAstGrepEngine } from "./load-astgrep-engine.js";
import type * as Entry from "./index.js";
import { builtEngine } from "./test-support/built-engine.js";

const platform = `${process.platform}-${process.arch}`;

describe("loadEngineBinary", () => {
  it("names the platform, the file looked for and the build command when the binary is absent", () => {
    const missing = join(tmpdir(), "runbound-no-engine", `astgrep-engine.${platform}.node`);
    expect(() => loadEngineBinary(missing)).toThrow(
      `The native ast-grep engine has no binary for ${platform}: \`${missing}\` does not exist. Build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): \`npm run build -w @runbound/astgrep-engine\` in the runbound repository.`,
    );
  });

  it("names the file and why when it is there but is no loadable addon", () => {
    const directory = mkdtempSync(join(tmpdir(), "runbound-engine-"));
    try {
      const broken = join(directory, `astgrep-engine.${platform}.node`);
      writeFileSync(broken, "not a shared library");
      expect(() => loadEngineBinary(broken)).toThrow(
        new RegExp(
          `binary \`${broken.replaceAll("\\", "\\\\")}\` does not load on ${platform}: .+npm run build -w @runbound/astgrep-engine`,
        ),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("looks for this platform's binary in dist/", () => {
    expect(engineBinaryPath().endsWith(`${sep}astgrep-engine${sep}dist${sep}astgrep-engine.${platform}.node`)).toBe(
      true,
    );
  });
});

const engine = builtEngine();

describe.runIf(engine !== undefined)("loadAstGrepEngine with the built binary", () => {
  it("loads the addon once, with the TreeStore class and the grammar registration", () => {
    expect(loadAstGrepEngine()).toBe(engine);
    expect(tryLoadAstGrepEngine()).toBe(engine);
    expect(typeof engine!.TreeStore).toBe("function");
    expect(typeof engine!.registerDynamicLanguages).toBe("function");
    expect(new engine!.TreeStore().size).toBe(0);
  });

  it("is what the package's compiled entry point loads, from next to it in dist/", async () => {
    // Through a variable, so type-checking does not need dist/ built; the types are src/index.ts's.
    const packageName = "@runbound/astgrep-engine";
    const entry = (await import(packageName)) as typeof Entry;
    const loaded = entry.loadAstGrepEngine();
    expect(typeof loaded.TreeStore).toBe("function");
    expect(entry.engineBinaryPath()).toBe(engineBinaryPath());
  });
});
