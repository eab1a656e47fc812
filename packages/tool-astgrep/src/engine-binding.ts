import type { AstGrepEngine, DynamicGrammar, TreeStore } from "@runbound/astgrep-engine";
import { createRequire } from "node:module";
import type { LanguageInfo } from "./language-info.js";

/** The engine's name for the built-in grammars is napi's. */
const builtinNames = new Set(["TypeScript", "Tsx", "JavaScript", "Html", "Css"]);
const dynamicNames = new Set<string>();

let engine: AstGrepEngine | null | undefined;
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
    const module = createRequire(import.meta.url)("@runbound/astgrep-engine") as { loadAstGrepEngine(): AstGrepEngine };
    engine = module.loadAstGrepEngine();
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

/** Whether searches of this language run on the native engine. */
export function engineReads(language: LanguageInfo): boolean {
  return nativeEngine() !== undefined && (builtinNames.has(language.napiLang) || dynamicNames.has(language.napiLang));
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

/** A new store for engine trees (the engine must be loaded). */
export function createTreeStore(): TreeStore {
  return new (nativeEngine()!.TreeStore)();
}

/** A store for searches that keep no trees (the parse cache is off, or full). */
export function sharedTreeStore(): TreeStore {
  shared ??= createTreeStore();
  return shared;
}
