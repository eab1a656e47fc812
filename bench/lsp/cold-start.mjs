// Cold first answer: from the call that starts the server to the first full definition answer, on a
// fresh server each round. tsserver answers from a syntax-only fallback while it loads the project
// (a definition of an imported function points at the import line), and the tool waits for that
// loading (projectLoading in tool-lsp's default servers). The raw client is measured two ways:
// "raw, same wait" does what the tool does (after didOpen, wait for a $/progress begin within
// beginsWithinMs, then for its end), and "raw, first full" asks again and again from the moment it
// opened the file until an answer names the definition's file: the earliest a full answer exists.
// A server without project loading (pyright) has no wait to copy: only "raw, first full" is measured.
import { openRawSide, openToolSide } from "./sides.mjs";
import { rawPlaces, rawRequest } from "./queries.mjs";

function isFull(query, places) {
  return places.some((place) => place.startsWith(query.full));
}

async function toolRound(fixture, query) {
  const tool = await openToolSide(fixture);
  try {
    const started = performance.now();
    const text = await tool.call("lsp", query.toolInput);
    const ms = performance.now() - started;
    return { ms, full: text.includes(query.full), partialNote: /may be partial|still indexing/i.test(text) };
  } finally {
    await tool.close();
  }
}

async function rawRound(launch, query, loading, mode) {
  const started = performance.now();
  const raw = await openRawSide(launch);
  try {
    const uri = raw.sync(query.path, query.text, launch.languageId);
    if (mode === "wait") {
      await raw.waitProjectLoaded(loading.beginsWithinMs, loading.budgetMs);
      const places = rawPlaces(await rawRequest(query, raw, uri), launch.workdir);
      return { ms: performance.now() - started, full: isFull(query, places) };
    }
    let partialAnswers = 0;
    for (;;) {
      const places = rawPlaces(await rawRequest(query, raw, uri), launch.workdir);
      if (isFull(query, places)) return { ms: performance.now() - started, full: true, partialAnswers };
      partialAnswers += 1;
      if (performance.now() - started > loading.budgetMs)
        return { ms: performance.now() - started, full: false, partialAnswers };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await raw.stop();
  }
}

/**
 * `rounds` rounds of the three variants, in an order that rotates each round (after one discarded
 * round that brings the programs and the project into the page cache).
 */
export async function measureColdStart({ rounds, toolFixture, toolQuery, launch, rawQuery, loading, log }) {
  const budget = loading ?? { beginsWithinMs: 0, budgetMs: 60_000 };
  const variants = {
    tool: () => toolRound(toolFixture, toolQuery),
    ...(loading === undefined ? {} : { "raw, same wait": () => rawRound(launch, rawQuery, budget, "wait") }),
    "raw, first full": () => rawRound(launch, rawQuery, budget, "poll"),
  };
  const names = Object.keys(variants);
  await variants["raw, first full"]();
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < names.length; step++) {
      const name = names[(round + step) % names.length];
      const result = await variants[name]();
      results[name].push(result);
      log(`  cold round ${round + 1}, ${name}: ${result.ms.toFixed(0)} ms${result.full ? "" : " (NOT a full answer)"}`);
    }
  }
  return results;
}
