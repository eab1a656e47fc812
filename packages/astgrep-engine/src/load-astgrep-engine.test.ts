import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processTriple } from "./engine-triple.js";
import { findEngineBinary } from "./find-engine-binary.js";
import { engineBinaryPath, loadAstGrepEngine, loadEngineBinary, tryLoadAstGrepEngine } from "./load-astgrep-engine.js";
import type * as Entry from "./index.js";
import { builtEngine } from "./test-support/built-engine.js";

const triple = processTriple();

describe("loadEngineBinary", () => {
  it("names the platform, the file looked for and the build command when the binary is absent", () => {
    const missing = join(tmpdir(), "runbound-no-engine", `astgrep-engine.${triple}.node`);
    expect(() => loadEngineBinary(missing)).toThrow(
      `The native ast-grep engine has no binary for ${triple}: \`${missing}\` does not exist. Build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): \`npm run build -w @runbound/astgrep-engine\` in the runbound repository.`,
    );
  });

  it("names the file and why when it is there but is no loadable addon", () => {
    const directory = mkdtempSync(join(tmpdir(), "runbound-engine-"));
    try {
      const broken = join(directory, `astgrep-engine.${triple}.node`);
      writeFileSync(broken, "not a shared library");
      expect(() => loadEngineBinary(broken)).toThrow(
        new RegExp(
          `binary \`${broken.replaceAll("\\", "\\\\")}\` does not load on ${triple}: .+npm run build -w @runbound/astgrep-engine`,
        ),
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

const engine = builtEngine();

describe.runIf(engine === undefined)("loadAstGrepEngine without a binary for this platform", () => {
  it("throws the lookup's reason, and tryLoadAstGrepEngine answers undefined", () => {
    const binary = findEngineBinary();
    expect(binary.found).toBe(false);
    expect(() => loadAstGrepEngine()).toThrow((binary as { reason: string }).reason);
    expect(() => engineBinaryPath()).toThrow((binary as { reason: string }).reason);
    expect(tryLoadAstGrepEngine()).toBeUndefined();
  });
});

describe.runIf(engine !== undefined)("loadAstGrepEngine with the built binary", () => {
  it("loads the addon once, with the TreeStore class and the grammar registration", () => {
    expect(loadAstGrepEngine()).toBe(engine);
    expect(tryLoadAstGrepEngine()).toBe(engine);
    expect(typeof engine!.TreeStore).toBe("function");
    expect(typeof engine!.registerDynamicLanguages).toBe("function");
    expect(new engine!.TreeStore().size).toBe(0);
  });

  it("answers the path of the binary it loaded, the one the lookup finds", () => {
    expect(engineBinaryPath()).toBe((findEngineBinary() as { path: string }).path);
  });

  it("is what the package's compiled entry point loads, from the same file", async () => {
    // Through a variable, so type-checking does not need dist/ built; the types are src/index.ts's.
    const packageName = "@runbound/astgrep-engine";
    const entry = (await import(packageName)) as typeof Entry;
    const loaded = entry.loadAstGrepEngine();
    expect(typeof loaded.TreeStore).toBe("function");
    expect(entry.engineBinaryPath()).toBe(engineBinaryPath());
  });
});
