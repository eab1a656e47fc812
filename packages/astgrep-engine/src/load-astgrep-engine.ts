import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { AstGrepEngine } from "./engine-types.js";

const fix =
  "Build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): `npm run build -w @runbound/astgrep-engine` in the runbound repository.";

/**
 * Where the build puts this platform's binary: dist/, next to the compiled loader. Written as
 * `../dist/` so the same path also holds when the loader runs from src/ (the package's tests).
 */
export function engineBinaryPath(): string {
  return fileURLToPath(new URL(`../dist/astgrep-engine.${process.platform}-${process.arch}.node`, import.meta.url));
}

/**
 * Load the engine binary at `path`.
 *
 * @throws Error naming the platform, the file and the fix when the file is absent or does not load.
 */
export function loadEngineBinary(path: string): AstGrepEngine {
  const platform = `${process.platform}-${process.arch}`;
  if (!existsSync(path)) {
    throw new Error(`The native ast-grep engine has no binary for ${platform}: \`${path}\` does not exist. ${fix}`);
  }
  try {
    return createRequire(import.meta.url)(path) as AstGrepEngine;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The native ast-grep engine binary \`${path}\` does not load on ${platform}: ${reason}. ${fix}`, {
      cause: error,
    });
  }
}

let loaded: AstGrepEngine | undefined;

/**
 * The native engine for this platform, loaded on first call (never at import).
 *
 * @throws Error naming the platform, the file looked for and how to build it, when there is no
 * usable binary for this platform.
 */
export function loadAstGrepEngine(): AstGrepEngine {
  loaded ??= loadEngineBinary(engineBinaryPath());
  return loaded;
}

/** The native engine, or `undefined` when this platform has no usable binary (callers fall back to @ast-grep/napi). */
export function tryLoadAstGrepEngine(): AstGrepEngine | undefined {
  try {
    return loadAstGrepEngine();
  } catch {
    return undefined;
  }
}
