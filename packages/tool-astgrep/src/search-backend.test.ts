import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { nativeEngine } from "./engine-binding.js";
import { engineSearchBackend } from "./engine-search-backend.js";
import { EventLoopSlicer } from "./event-loop-slice.js";
import { builtinLanguage } from "./language-registry.js";
import { MatchCollector } from "./match-collector.js";
import { napiSearchBackend } from "./napi-search-backend.js";
import { ParseCache } from "./parse-cache.js";
import { compilePattern, type CompiledPattern } from "./pattern-compiler.js";
import { compileQuery } from "./query-compiler.js";
import { compileRule } from "./rule-compiler.js";
import { parseRuleText } from "./rule-text.js";
import type { SearchBackend } from "./search-backend.js";
import { SkipLedger } from "./skip-ledger.js";

// The suite also runs with RUNBOUND_ASTGREP_ENGINE=napi (the package's test script); the engine's
// tests turn it back on while they run, and leave it as found.
const chosenEngine = process.env["RUNBOUND_ASTGREP_ENGINE"];
function restoreEngineChoice(): void {
  if (chosenEngine === undefined) delete process.env["RUNBOUND_ASTGREP_ENGINE"];
  else process.env["RUNBOUND_ASTGREP_ENGINE"] = chosenEngine;
}
delete process.env["RUNBOUND_ASTGREP_ENGINE"];
const engineLoads = nativeEngine() !== undefined;
restoreEngineChoice();

/** Files that exercise a backend's contract: matches, a BOM, a file without the pattern's words, a syntax error, a skip. */
const files: Record<string, string | Buffer> = {
  "a.ts": "log(1);\nlog(2, 3);\n",
  "b.ts": "\uFEFFlog(café);\n",
  "c.ts": "const x = 1;\n",
  "d.ts": "log(4);\nconst = ;\n",
  "e.ts": Buffer.from("log(5);\0\n"),
};

let workspace: TempWorkspace;
beforeAll(async () => {
  workspace = await createTempWorkspace(files);
});
afterAll(async () => {
  await workspace.cleanup();
});

/** Search the files with one backend, as `searchStructurally` hands a language to it. */
async function searchOn(
  backend: SearchBackend,
  cache: ParseCache | undefined,
  pattern = "log($$$ARGS)",
  compiled: CompiledPattern = compilePattern(builtinLanguage("typescript")!, pattern),
): Promise<unknown> {
  const dir = workspace.dir;
  const collector = new MatchCollector(100, false);
  const skipped = new SkipLedger();
  cache?.beginSearch();
  const read = await backend.search({
    compiled,
    paths: Object.keys(files).map((path) => join(dir, path)),
    request: {
      workdir: dir,
      root: dir,
      pattern,
      keep: 100,
      maxFileBytes: 1 << 20,
      ...(cache === undefined ? {} : { cache }),
    },
    collector,
    skipped,
    slicer: new EventLoopSlicer(undefined),
  });
  return {
    read,
    total: collector.total,
    filesWithMatches: collector.filesWithMatches,
    matches: collector.matches,
    skipped: skipped.counts,
    syntaxErrors: collector.syntaxErrors.files,
  };
}

const backends: Array<[string, SearchBackend, SearchBackend]> = [
  ["napi", napiSearchBackend, engineSearchBackend],
  ["native engine", engineSearchBackend, napiSearchBackend],
];

describe.each(backends)("the %s search backend", (name, backend, other) => {
  const available = name === "napi" || engineLoads;
  beforeEach(() => {
    if (name !== "napi") delete process.env["RUNBOUND_ASTGREP_ENGINE"];
  });
  afterEach(restoreEngineChoice);

  it.skipIf(!available)("reads the TypeScript grammar", () => {
    expect(backend.reads(builtinLanguage("typescript")!)).toBe(true);
  });

  it.skipIf(!available)(
    "reads every searchable file, counts the skipped one, and finds every match with its syntax errors",
    async () => {
      const found = (await searchOn(backend, undefined)) as {
        read: number;
        total: number;
        filesWithMatches: number;
        skipped: Record<string, number>;
        syntaxErrors: number;
        matches: Array<{ text: string; column: number }>;
      };
      expect(found).toMatchObject({ read: 4, total: 4, filesWithMatches: 3, syntaxErrors: 1 });
      expect(found.skipped.binary).toBe(1);
      expect(found.matches.map((match) => match.text)).toEqual(["log(1)", "log(2, 3)", "log(café)", "log(4)"]);
      // An editor does not count the BOM as a column.
      expect(found.matches[2]!.column).toBe(0);
    },
  );

  it.skipIf(!available)(
    "answers a warm search from its own shelf of the parse cache as it answered the cold one",
    async () => {
      const cache = new ParseCache(1 << 30);
      const cold = await searchOn(backend, cache);
      const kept = cache.stats().files;
      expect(kept).toBeGreaterThan(0);
      expect(await searchOn(backend, cache)).toEqual(cold);
      expect(await searchOn(backend, cache, "log($A)")).toEqual(await searchOn(backend, undefined, "log($A)"));
      expect(cache.stats()).toMatchObject({ files: kept, hits: 2 * kept });
      expect(cold).toEqual(await searchOn(backend, undefined));
    },
  );

  it.skipIf(!available)(
    "runs an ast-grep rule with ast-grep's engine: relational and composite parts, constraints, utils and transform",
    async () => {
      const rule = parseRuleText(
        [
          "rule:",
          "  all: [{matches: logCall}, {not: {has: {kind: number, stopBy: end}}}]",
          "utils:",
          "  logCall: {pattern: log($A), inside: {kind: program, stopBy: end}}",
          "constraints:",
          "  A: {regex: '^c'}",
          "transform:",
          "  TAIL: {substring: {source: $A, startChar: 1}}",
        ].join("\n"),
      );
      const found = (await searchOn(backend, undefined, "", compileRule(builtinLanguage("typescript")!, rule))) as {
        total: number;
        matches: Array<{ text: string; captures: Record<string, { text: string }> }>;
      };
      expect(found.total).toBe(1);
      expect(found.matches[0]!.text).toBe("log(café)");
      expect(found.matches[0]!.captures).toMatchObject({ A: { text: "café" }, TAIL: { text: "afé" } });
    },
  );

  it.skipIf(!engineLoads)("answers a rule and a pattern object as the other backend does, cold and warm", async () => {
    delete process.env["RUNBOUND_ASTGREP_ENGINE"];
    const typescript = builtinLanguage("typescript")!;
    const rule = compileRule(
      typescript,
      parseRuleText("kind: call_expression\nhas: {kind: arguments, has: {kind: number}}"),
    );
    const object = compileQuery(typescript, { context: "log($A, $B)", selector: "call_expression" }, undefined);
    const cache = new ParseCache(1 << 30);
    for (const compiled of [rule, await object]) {
      const expected = await searchOn(other, undefined, "", compiled);
      expect(await searchOn(backend, undefined, "", compiled)).toEqual(expected);
      expect(await searchOn(backend, cache, "", compiled)).toEqual(expected);
      expect(await searchOn(backend, cache, "", compiled)).toEqual(expected);
    }
  });

  it.skipIf(!engineLoads)(
    "parses again the files whose trees the other backend keeps, and answers as without a cache",
    async () => {
      delete process.env["RUNBOUND_ASTGREP_ENGINE"];
      const cache = new ParseCache(1 << 30);
      await searchOn(other, cache);
      const kept = cache.stats().files;
      expect(kept).toBeGreaterThan(0);
      expect(await searchOn(backend, cache)).toEqual(await searchOn(backend, undefined));
      expect(cache.stats()).toMatchObject({ files: kept, hits: 0 });
      // Its own trees replaced the other backend's: a search on it now answers from the cache.
      await searchOn(backend, cache);
      expect(cache.stats().hits).toBe(kept);
    },
  );
});
