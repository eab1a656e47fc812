import { resultText, Workdir, type Plugin } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { AstGrepParser, astGrepPlugin, createAstGrepParser, type AstGrepParserInstance } from "./index.js";
import { treeBytesPerSourceByte } from "./parse-cache.js";

let workspace: TempWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** A file of `count` calls `name(n)`, all of one size whatever the name's letters. */
function calls(name: string, count: number): string {
  return Array.from({ length: count }, (_, line) => `${name}(${line});\n`).join("");
}

async function setUp(
  files: Record<string, string>,
  parseCacheBytes?: number,
): Promise<{ parser: AstGrepParserInstance; dir: string }> {
  workspace = await createTempWorkspace(files);
  return { parser: createAstGrepParser(parseCacheBytes === undefined ? {} : { parseCacheBytes }), dir: workspace.dir };
}

/** A run of the plugin whose parser resource is `parser`. */
function runWith(parser: AstGrepParserInstance, dir: string): FakeRun {
  return createFakeRun({
    plugins: [astGrepPlugin],
    resources: [
      [AstGrepParser, parser],
      [Workdir, dir],
    ],
  });
}

async function total(run: FakeRun, pattern: string, path = "."): Promise<number> {
  const result = await run.call("ast_grep", { pattern, path, language: "typescript" });
  expect(result.isError, resultText(result)).toBeFalsy();
  return result.structured?.["total"] as number;
}

/** What the run's host does after a call that reported writes: let the plugin's observers see them. */
async function notifyWritten(plugin: Plugin, parser: AstGrepParserInstance, paths: readonly string[]): Promise<void> {
  for (const observer of plugin.observers) {
    await observer.observe(paths, {
      resource: (() => parser) as never,
      signal: new AbortController().signal,
      run: { id: "test", caller: { name: "main", ceiling: "exec" } },
      progress: () => undefined,
    });
  }
}

/** Rewrite a file with other content of the same size and give it back its mtime, as a coarse file system would show it. */
function rewriteKeepingSizeAndMtime(path: string, content: string): void {
  const before = statSync(path);
  writeFileSync(path, content);
  expect(statSync(path).size).toBe(before.size);
  utimesSync(path, before.atime, before.mtime);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

/** Set a file's mtime to a whole second, `secondsAgo` in the past (so restoring it later is exact). */
function ageFile(path: string, secondsAgo: number): void {
  const seconds = Math.floor(Date.now() / 1000) - secondsAgo;
  utimesSync(path, seconds, seconds);
}

describe("the parse cache", () => {
  it("answers a repeated search from the kept trees, with the same answer", async () => {
    const { parser, dir } = await setUp({
      "a.ts": calls("alpha", 3),
      "b.ts": `${calls("beta", 2)}export interface H<out A> {}\n`,
    });
    const run = runWith(parser, dir);
    const first = await run.call("ast_grep", { pattern: "$F($N)", language: "typescript" });
    const cold = parser.parseCache!.stats();
    expect(cold).toMatchObject({ files: 2, hits: 0, misses: 2 });
    const second = await run.call("ast_grep", { pattern: "$F($N)", language: "typescript" });
    expect(parser.parseCache!.stats()).toMatchObject({ files: 2, hits: 2, misses: 2 });
    expect(resultText(second)).toBe(resultText(first));
    expect(second.structured).toEqual(first.structured);
    expect(resultText(second)).toContain("syntax errors");
    // A different pattern is matched against the same trees.
    expect(await total(run, "alpha($N)")).toBe(3);
    expect(parser.parseCache!.stats()).toMatchObject({ hits: 4, misses: 2 });
  });

  it("materializes more matches when a later search shows more than the kept result holds", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 8) });
    const run = runWith(parser, dir);
    const few = await run.call("ast_grep", { pattern: "alpha($N)", max_results: 2 });
    expect(few.structured?.["matches"]).toHaveLength(2);
    const more = await run.call("ast_grep", { pattern: "alpha($N)", max_results: 6 });
    expect((more.structured?.["matches"] as Array<{ line: number }>).map((match) => match.line)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(parser.parseCache!.stats().hits).toBe(1);
  });

  it("sees a file edited outside the run between two searches", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 3), "b.ts": calls("beta", 2) });
    // Old enough that the cache trusts size and mtime without comparing the bytes.
    ageFile(join(dir, "a.ts"), 7200);
    ageFile(join(dir, "b.ts"), 7200);
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(3);
    expect(await total(run, "beta($N)")).toBe(2);
    writeFileSync(join(dir, "a.ts"), calls("alpha", 5));
    expect(await total(run, "alpha($N)")).toBe(5);
    // Same size, other content, a new mtime.
    writeFileSync(join(dir, "b.ts"), calls("alpha", 2).replace(/alpha/g, "gamma"));
    ageFile(join(dir, "b.ts"), 3600);
    expect(await total(run, "gamma($N)")).toBe(2);
    expect(await total(run, "beta($N)")).toBe(0);
  });

  it("sees a change that keeps the size and the mtime while the mtime is too recent to trust", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 3) });
    const path = join(dir, "a.ts");
    ageFile(path, 0);
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(3);
    rewriteKeepingSizeAndMtime(path, calls("omega", 3));
    expect(await total(run, "omega($N)")).toBe(3);
    expect(await total(run, "alpha($N)")).toBe(0);
  });

  it("sees a file written through the run even when its size and old mtime stay the same", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 3), "b.ts": calls("beta", 1) });
    const path = join(dir, "a.ts");
    ageFile(path, 3600);
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(3);
    rewriteKeepingSizeAndMtime(path, calls("omega", 3));
    await notifyWritten(astGrepPlugin, parser, [path]);
    expect(await total(run, "omega($N)")).toBe(3);
    expect(parser.parseCache!.stats().invalidated).toBe(1);
  });

  it("drops every tree under a directory reported written", async () => {
    const { parser, dir } = await setUp({
      "src/a.ts": calls("alpha", 1),
      "src/b.ts": calls("alpha", 1),
      "c.ts": calls("alpha", 1),
    });
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(3);
    await notifyWritten(astGrepPlugin, parser, [join(dir, "src")]);
    expect(parser.parseCache!.stats()).toMatchObject({ files: 1, invalidated: 2 });
  });

  it("sees what ast_edit and resolve wrote", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 2) });
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(2);
    const staged = await run.call("ast_edit", { pattern: "alpha($N)", rewrite: "omega($N)" });
    const editId = /edit_\d+/.exec(resultText(staged))![0];
    const resolved = await run.call("resolve", { edit_id: editId, action: "accept" });
    expect(resolved.isError, resultText(resolved)).toBeFalsy();
    await notifyWritten(astGrepPlugin, parser, run.written);
    expect(await total(run, "omega($N)")).toBe(2);
    expect(await total(run, "alpha($N)")).toBe(0);
  });

  it("keeps within its budget, evicting the least recently used trees first", async () => {
    // Mostly a comment: the tree's cost outweighs the few matches kept with it.
    const file = `${calls("alpha", 40)}// ${"x".repeat(4000)}\n`;
    const treeCost = Buffer.byteLength(file) * treeBytesPerSourceByte;
    // Room for two trees and their results, not three.
    const { parser, dir } = await setUp({ "a.ts": file, "b.ts": file, "c.ts": file }, Math.floor(treeCost * 2.5));
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)", "a.ts")).toBe(40);
    expect(await total(run, "alpha($N)", "b.ts")).toBe(40);
    expect(await total(run, "alpha($N)", "a.ts")).toBe(40);
    expect(parser.parseCache!.stats()).toMatchObject({ files: 2, hits: 1, evicted: 0 });
    // c.ts pushes out b.ts, used less recently than a.ts.
    expect(await total(run, "alpha($N)", "c.ts")).toBe(40);
    expect(parser.parseCache!.stats()).toMatchObject({ files: 2, evicted: 1 });
    expect(await total(run, "alpha($N)", "a.ts")).toBe(40);
    expect(parser.parseCache!.stats().hits).toBe(2);
    expect(await total(run, "alpha($N)", "b.ts")).toBe(40);
    expect(parser.parseCache!.stats()).toMatchObject({ hits: 2, evicted: 2 });
    const stats = parser.parseCache!.stats();
    expect(stats.usedBytes).toBeLessThanOrEqual(stats.budgetBytes);
  });

  it("answers a search bigger than its budget in full, keeping what fits instead of evicting its own trees", async () => {
    const file = `${calls("alpha", 40)}// ${"x".repeat(4000)}\n`;
    const treeCost = Buffer.byteLength(file) * treeBytesPerSourceByte;
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`f${index}.ts`, file]));
    const { parser, dir } = await setUp(files, Math.floor(treeCost * 2.5));
    const run = runWith(parser, dir);
    expect(await total(run, "alpha($N)")).toBe(240);
    expect(parser.parseCache!.stats()).toMatchObject({ files: 2, evicted: 0 });
    expect(await total(run, "alpha($N)")).toBe(240);
    expect(parser.parseCache!.stats()).toMatchObject({ files: 2, hits: 2, evicted: 0 });
  });

  it("is off with a budget of 0, and the status line says what it holds", async () => {
    const { parser, dir } = await setUp({ "a.ts": calls("alpha", 2) }, 0);
    expect(parser.parseCache).toBeUndefined();
    expect(await total(runWith(parser, dir), "alpha($N)")).toBe(2);

    const provider = astGrepPlugin.resourceProviders[0]!;
    const instance = await provider.create({ workdir: dir, signal: new AbortController().signal });
    expect(instance.describe?.()).toMatch(
      /; parse cache: 0 files, 0.0 MiB of 256 MiB; 0 hits, 0 misses, 0 evicted, 0 dropped after writes; engine: (native|@ast-grep\/napi)/,
    );
    const run = runWith(instance.value as AstGrepParserInstance, dir);
    await total(run, "alpha($N)");
    expect(instance.describe?.()).toMatch(/parse cache: 1 file, 0.0 MiB of 256 MiB; 0 hits, 1 misses/);
    await instance.dispose?.();
    expect(instance.describe?.()).toMatch(/parse cache: 0 files/);
  });
});
