import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { AstGrepEngine } from "./engine-types.js";
import { processTriple } from "./engine-triple.js";
import { findEngineBinary } from "./find-engine-binary.js";

const rebuild =
  "Build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): `npm run build -w @runbound/astgrep-engine` in the runbound repository.";

/**
 * Load the engine binary at `path`.
 *
 * @throws Error naming the platform, the file and the fix when the file is absent or does not load.
 */
export function loadEngineBinary(path: string): AstGrepEngine {
  const triple = processTriple();
  if (!existsSync(path)) {
    throw new Error(`The native ast-grep engine has no binary for ${triple}: \`${path}\` does not exist. ${rebuild}`);
  }
  try {
    return createRequire(import.meta.url)(path) as AstGrepEngine;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`The native ast-grep engine binary \`${path}\` does not load on ${triple}: ${reason}. ${rebuild}`, {
      cause: error,
    });
  }
}

let loaded: { engine: AstGrepEngine; path: string } | undefined;

/**
 * The path of the engine binary for this platform: the one {@link loadAstGrepEngine} loaded, else the
 * one it would load (from the platform package `@runbound/astgrep-engine-<triple>`, else from a build
 * in a runbound checkout). napi reads the engine's grammars from this file.
 *
 * @throws Error with the reason there is none (see {@link findEngineBinary}).
 */
export function engineBinaryPath(): string {
  if (loaded !== undefined) return loaded.path;
  const binary = findEngineBinary();
  if (!binary.found) throw new Error(binary.reason);
  return binary.path;
}

/**
 * The native engine for this platform, loaded on first call (never at import).
 *
 * @throws Error saying why there is no usable binary for this platform: its package is not published,
 * not installed or of another version, or the binary does not load; each with the way out.
 */
export function loadAstGrepEngine(): AstGrepEngine {
  if (loaded === undefined) {
    const binary = findEngineBinary();
    if (!binary.found) throw new Error(binary.reason);
    loaded = { engine: loadEngineBinary(binary.path), path: binary.path };
  }
  return loaded.engine;
}

/** The native engine, or `undefined` when this platform has no usable binary (callers fall back to @ast-grep/napi). */
export function tryLoadAstGrepEngine(): AstGrepEngine | undefined {
  try {
    return loadAstGrepEngine();
  } catch {
    return undefined;
  }
}
