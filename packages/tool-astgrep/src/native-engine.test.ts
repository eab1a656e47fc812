import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { engineReads, nativeEngine } from "./engine-binding.js";
import { createAstGrepParser, type AstGrepParserInstance } from "./index.js";
import type { SearchOutcome } from "./search-outcome.js";

let workspace: TempWorkspace | undefined;
// The suite also runs with RUNBOUND_ASTGREP_ENGINE=napi (the package's test script): leave it as found.
const chosenEngine = process.env["RUNBOUND_ASTGREP_ENGINE"];
afterEach(async () => {
  if (chosenEngine === undefined) delete process.env["RUNBOUND_ASTGREP_ENGINE"];
  else process.env["RUNBOUND_ASTGREP_ENGINE"] = chosenEngine;
  await workspace?.cleanup();
  workspace = undefined;
});

/** Files that exercise what an answer carries: non-ASCII text, a BOM, CRLF, `$$$` captures and a syntax error. */
const files = {
  "a.ts": "const café = 'é';\nlog(café, '😀', x);\nlog();\n",
  "b.ts": "\uFEFFlog(1);\n",
  "c.ts": "function f() {\r\n  log(a, b);\r\n}\r\n",
  "d.ts": "log(1);\nconst = ;\nlog(2);\n",
  "e/f.ts": "if (ok) { log(`${'😀'}`, ...rest); }\n",
};

async function searchWith(
  parser: AstGrepParserInstance,
  engine: "native" | "napi",
  pattern: string,
  rewriting = false,
): Promise<SearchOutcome> {
  if (engine === "napi") process.env["RUNBOUND_ASTGREP_ENGINE"] = "napi";
  else delete process.env["RUNBOUND_ASTGREP_ENGINE"];
  const dir = workspace!.dir;
  return parser.search({
    workdir: dir,
    root: dir,
    language: parser.language("typescript"),
    pattern,
    keep: Number.POSITIVE_INFINITY,
    rewriting,
  });
}

/** What the answer is made of, without what only says how it was computed. */
function answer(outcome: SearchOutcome): unknown {
  const { total, filesWithMatches, matches, scanned, skipped, syntaxErrors } = outcome;
  return {
    total,
    filesWithMatches,
    matches,
    scanned,
    skipped,
    syntaxErrors: { ...syntaxErrors, regions: [...syntaxErrors.regions] },
  };
}

describe("the native engine", () => {
  it("is what searches run on here, and RUNBOUND_ASTGREP_ENGINE=napi turns it off", () => {
    delete process.env["RUNBOUND_ASTGREP_ENGINE"];
    const typescript = createAstGrepParser().language("typescript")!;
    // CI builds the engine; a missing binary there is a failure, not a quiet fallback.
    if (process.env["RUNBOUND_REQUIRE_REAL"] === "1")
      expect(nativeEngine(), "@runbound/astgrep-engine did not load; build it with npm run build").toBeDefined();
    expect(engineReads(typescript)).toBe(nativeEngine() !== undefined);
    process.env["RUNBOUND_ASTGREP_ENGINE"] = "napi";
    expect(engineReads(typescript)).toBe(false);
  });

  it.each([
    ["log($$$ARGS)", false],
    ["log($A, $B)", false],
    ["const $N = $V", false],
    ["log($$$ARGS)", true],
  ])(
    "gives the answer napi gives for `%s` (rewriting: %s): positions, captures, BOM, CRLF and syntax errors",
    async (pattern, rewriting) => {
      workspace = await createTempWorkspace(files);
      const native = await searchWith(createAstGrepParser({ parseCacheBytes: 0 }), "native", pattern, rewriting);
      const napi = await searchWith(createAstGrepParser({ parseCacheBytes: 0 }), "napi", pattern, rewriting);
      expect(native.total).toBeGreaterThan(0);
      expect(native.syntaxErrors.files).toBe(1);
      expect(answer(native)).toEqual(answer(napi));
    },
  );

  it("reads the installed grammars too, as napi does", async () => {
    workspace = await createTempWorkspace({
      "m.py": "def f(a, b):\n    return g(a, 'é')\n\nprint(f(1, 2))\n",
      "n.py": "x = g(1)\nclass (:\n",
    });
    const parser = createAstGrepParser({ parseCacheBytes: 0, languages: ["python"] });
    // The dynamic grammars reach the engine only if it is on when they are registered (here, on this
    // first use of a language that is not built in), even in the suite's run on napi.
    delete process.env["RUNBOUND_ASTGREP_ENGINE"];
    const python = parser.language("python")!;
    if (nativeEngine() !== undefined) expect(engineReads(python)).toBe(true);
    const search = async (engine: "native" | "napi"): Promise<SearchOutcome> => {
      if (engine === "napi") process.env["RUNBOUND_ASTGREP_ENGINE"] = "napi";
      else delete process.env["RUNBOUND_ASTGREP_ENGINE"];
      return parser.search({
        workdir: workspace!.dir,
        root: workspace!.dir,
        language: python,
        pattern: "g($$$A)",
        keep: 10,
      });
    };
    const native = await search("native");
    expect(answer(native)).toEqual(answer(await search("napi")));
    expect(native.total).toBe(2);
    expect(native.syntaxErrors.files).toBe(1);
  });

  it("answers from kept trees as from fresh ones, and frees a tree the moment the cache lets it go", async () => {
    workspace = await createTempWorkspace(files);
    const parser = createAstGrepParser();
    const cache = parser.parseCache!;
    const cold = await searchWith(parser, "native", "log($$$ARGS)");
    const store = cache.engineStore();
    expect(store.size).toBe(5);
    expect(cache.stats().files).toBe(5);
    const warm = await searchWith(parser, "native", "log($A, $B)");
    expect(answer(warm)).toEqual(
      answer(await searchWith(createAstGrepParser({ parseCacheBytes: 0 }), "native", "log($A, $B)")),
    );
    expect(cache.stats().hits).toBe(5);
    expect(cold.total).toBeGreaterThan(warm.total);
    cache.forget([`${workspace.dir}/a.ts`]);
    expect(store.size).toBe(4);
    parser.dispose();
    expect(store.size).toBe(0);
  });

  it("keeps only the trees that fit the budget and holds no others", async () => {
    workspace = await createTempWorkspace(
      Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`f${index}.ts`, "log(1);\n".repeat(200)])),
    );
    // Room for about five of the twenty files' trees.
    const parser = createAstGrepParser({ parseCacheBytes: 5 * 1600 * 30 + 1000 });
    const outcome = await searchWith(parser, "native", "log($A)");
    expect(outcome.total).toBe(4000);
    const kept = parser.parseCache!.stats().files;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(20);
    expect(parser.parseCache!.engineStore().size).toBe(kept);
  });

  it("keeps no tree the cache does not hold when a search is aborted, whenever the abort comes", async () => {
    workspace = await createTempWorkspace(
      Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`g${index}.ts`, "log(a, b);\n".repeat(3000)])),
    );
    const dir = workspace.dir;
    delete process.env["RUNBOUND_ASTGREP_ENGINE"];
    let aborted = 0;
    // Before the engine starts, while it parses, while its answer is handed to the cache, after.
    for (const delayMs of [0, 5, 30, 80, 200, 600]) {
      const parser = createAstGrepParser();
      const cache = parser.parseCache!;
      const controller = new AbortController();
      const searching = parser.search({
        workdir: dir,
        root: dir,
        language: parser.language("typescript"),
        pattern: "log($A, $B)",
        keep: 10,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), delayMs);
      const outcome = await searching.catch(() => undefined);
      if (outcome === undefined) {
        expect(controller.signal.aborted).toBe(true);
        aborted += 1;
      } else expect(outcome.total).toBe(60 * 3000);
      expect(cache.engineStore().size, `abort after ${delayMs} ms`).toBe(cache.stats().files);
      parser.dispose();
    }
    expect(aborted).toBeGreaterThan(0);
  });

  it.each([
    ["as the engine answers", "answered"],
    ["while the answers are handed to the cache", "handing over"],
  ])("lets go of every tree the cache did not take when the abort comes %s", async (_, when) => {
    // Many small files, so handing their answers over takes several slices of the event loop.
    workspace = await createTempWorkspace(
      Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`h${index}.ts`, `log(${index}, b);\n`])),
    );
    const dir = workspace.dir;
    delete process.env["RUNBOUND_ASTGREP_ENGINE"];
    const parser = createAstGrepParser();
    const cache = parser.parseCache!;
    const store = cache.engineStore();
    const controller = new AbortController();
    const searchPaths = store.searchPaths.bind(store);
    // The real engine answers; the abort then lands in the window under test.
    store.searchPaths = async (...args) => {
      const found = await searchPaths(...args);
      if (when === "answered") controller.abort();
      else setImmediate(() => controller.abort());
      return found;
    };
    await expect(
      parser.search({
        workdir: dir,
        root: dir,
        language: parser.language("typescript"),
        pattern: "log($A, $B)",
        keep: 10,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(store.size).toBe(cache.stats().files);
    if (when === "answered") expect(store.size).toBe(0);
    else expect(store.size).toBeLessThan(3000);
    parser.dispose();
  });
});
