import type { AstGrepEngine } from "../engine-types.js";
import { findEngineBinary } from "../find-engine-binary.js";
import { loadAstGrepEngine } from "../load-astgrep-engine.js";

/**
 * The built engine, or `undefined` when this checkout has no binary for the platform (cargo was
 * absent at build time). Under `RUNBOUND_REQUIRE_REAL=1` (set by `.ci/run`) a missing binary throws,
 * so CI fails instead of skipping; a binary that is there but does not load always throws.
 */
export function builtEngine(): AstGrepEngine | undefined {
  const binary = findEngineBinary();
  if (binary.found) return loadAstGrepEngine();
  if (process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(
      `RUNBOUND_REQUIRE_REAL is set but the native engine is not built (${binary.reason}). Install Rust with cargo and run \`npm run build -w @runbound/astgrep-engine\`.`,
    );
  }
  return undefined;
}
