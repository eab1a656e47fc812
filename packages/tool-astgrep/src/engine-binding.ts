import type { AstGrepEngine, DynamicGrammar, EngineGrammar, RuleConfig, TreeStore } from "@runbound/astgrep-engine";
import { createRequire } from "node:module";
import type { LanguageInfo } from "./language-info.js";

/** The engine's name for the built-in grammars is napi's. */
const builtinNames = new Set(["TypeScript", "Tsx", "JavaScript", "Html", "Css"]);
const dynamicNames = new Set<string>();

let engine: AstGrepEngine | null | undefined;
let binaryPath = "";
let missingBecause = "";
let shared: TreeStore | undefined;

/**
 * The native engine (@runbound/astgrep-engine), when it is installed with a binary for this platform
 * and not turned off with `RUNBOUND_ASTGREP_ENGINE=napi`. It parses UTF-8 on every core and counts
 * matches without making JS objects of them; without it, searches run on @ast-grep/napi alone.
 */
export function nativeEngine(): AstGrepEngine | undefined {
  // Read at every search, so a host (or a test) can compare both engines in one process.
  if (process.env.RUNBOUND_ASTGREP_ENGINE === "napi") return undefined;
  if (engine !== undefined) return engine ?? undefined;
  engine = null;
  try {
    const module = createRequire(import.meta.url)("@runbound/astgrep-engine") as {
      loadAstGrepEngine(): AstGrepEngine;
      engineBinaryPath(): string;
    };
    engine = module.loadAstGrepEngine();
    binaryPath = module.engineBinaryPath();
  } catch (error) {
    // An optional dependency: left out on purpose, or no binary for this platform.
    missingBecause = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  }
  return engine ?? undefined;
}

/** For status views: which engine searches run on, and why not the native one. */
export function describeEngine(): string {
  if (process.env.RUNBOUND_ASTGREP_ENGINE === "napi") return "engine: @ast-grep/napi (RUNBOUND_ASTGREP_ENGINE=napi)";
  if (nativeEngine() !== undefined) return "engine: native (@runbound/astgrep-engine)";
  return `engine: @ast-grep/napi (the native engine did not load: ${missingBecause})`;
}

/** Why the native engine is not loaded here, as a clause ("RUNBOUND_ASTGREP_ENGINE=napi turns it off"). */
export function engineMissingReason(): string {
  if (process.env.RUNBOUND_ASTGREP_ENGINE === "napi")
    return "RUNBOUND_ASTGREP_ENGINE=napi turns it off; unset it to load the engine";
  return nativeEngine() === undefined ? missingBecause : "it is loaded";
}

/** The engine's own grammars (HCL, Nix, Solidity, Zig) and the binary napi reads them from, or why there are none. */
export type EngineGrammars = { libraryPath: string; grammars: readonly EngineGrammar[] } | { reason: string };

/**
 * The grammars compiled into the engine that napi lacks. napi registers them from the engine binary
 * itself (each grammar's language is a C symbol there), so patterns are read with the grammar the
 * engine searches with.
 */
export function engineGrammars(): EngineGrammars {
  const native = nativeEngine();
  if (native === undefined) return { reason: engineMissingReason() };
  // A binary built before the engine had grammars of its own (cargo was absent when the sources changed).
  if (typeof native.engineGrammars !== "function") {
    return {
      reason: `the engine binary \`${binaryPath}\` was built before it had grammars of its own; rebuild it with \`npm run build -w @runbound/astgrep-engine\``,
    };
  }
  return { libraryPath: binaryPath, grammars: native.engineGrammars() };
}

/** Whether searches of this language run on the native engine. */
export function engineReads(language: LanguageInfo): boolean {
  return (
    nativeEngine() !== undefined &&
    (language.source === "engine" || builtinNames.has(language.napiLang) || dynamicNames.has(language.napiLang))
  );
}

/**
 * Register the dynamic grammars napi registered with the engine too. A grammar the engine refuses
 * (the process registered grammars before) is searched with napi alone.
 */
export function registerEngineGrammars(grammars: readonly DynamicGrammar[]): void {
  const native = nativeEngine();
  if (native === undefined || grammars.length === 0) return;
  try {
    native.registerDynamicLanguages([...grammars]);
    for (const grammar of grammars) dynamicNames.add(grammar.name);
  } catch {
    // Searched with napi, which reads these grammars the same way.
  }
}

/**
 * ast-grep's reason (from ast-grep-config in the engine) for refusing a rule as the engine's searches
 * compile it, `undefined` when it compiles. The engine must read `language` (see `engineReads`).
 *
 * @throws Error when the engine binary predates `checkRule` (it says how to rebuild it).
 */
export function engineRuleRefusal(language: LanguageInfo, config: RuleConfig): string | undefined {
  const native = nativeEngine()!;
  if (typeof native.checkRule !== "function")
    throw new Error(
      `the engine binary \`${binaryPath}\` was built before it took rule files' \`rewriters\`; rebuild it with \`npm run build -w @runbound/astgrep-engine\``,
    );
  return native.checkRule(language.napiLang, config) ?? undefined;
}

/** A new store for engine trees (the engine must be loaded). */
export function createTreeStore(): TreeStore {
  return new (nativeEngine()!.TreeStore)();
}

/** A store for searches that keep no trees (the parse cache is off, or full). */
export function sharedTreeStore(): TreeStore {
  shared ??= createTreeStore();
  return shared;
}
