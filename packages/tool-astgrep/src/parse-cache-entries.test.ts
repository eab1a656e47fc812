import type { SgRoot } from "@ast-grep/napi";
import type { TreeStore } from "@runbound/astgrep-engine";
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAstGrepParser } from "./astgrep-parser.js";
import type { CachedTree } from "./cached-tree.js";
import type { EngineTree } from "./engine-tree.js";
import type { FileMatches } from "./file-matches.js";
import { napi } from "./napi-binding.js";
import {
  coarseMtimeMs,
  createParseCache,
  defaultParseCacheBytes,
  ParseCache,
  treeBytesPerSourceByte,
} from "./parse-cache.js";

const dir = mkdtempSync(join(tmpdir(), "runbound-astgrep-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = "const a = f(1);\n";

/** A real file and its tree; `stats` is the file's lstat. */
function treeFor(name: string, content = source): { tree: CachedTree<SgRoot>; stats: Stats } {
  const path = join(dir, name);
  writeFileSync(path, content);
  const bytes = Buffer.from(content);
  return {
    tree: { path, language: "typescript", bytes, root: napi().parse("TypeScript", content), hasBom: false },
    stats: lstatSync(path),
  };
}

/** The same stats with some fields changed (methods such as isFile kept). */
function changed(stats: Stats, fields: Partial<Stats>): Stats {
  return Object.assign(Object.create(Object.getPrototypeOf(stats) as object) as Stats, stats, fields);
}

const never = (): Buffer => {
  throw new Error("the bytes were read although size and mtime are trusted");
};

function found(count: number): FileMatches {
  return { count, matches: [], errors: undefined };
}

describe("ParseCache entries", () => {
  it("serves an unchanged file and drops it when its size, mtime, inode or kind changed", () => {
    for (const fields of [{ size: 1 }, { mtimeMs: 1 }, { ino: 1 }, { mode: 0o10644 }] as Array<Partial<Stats>>) {
      const cache = new ParseCache(1 << 30);
      const { tree, stats } = treeFor("a.ts");
      const old = changed(stats, { mtimeMs: 1000 });
      expect(cache.napiTrees.admit(tree, old, 1000 + coarseMtimeMs)).toBe(true);
      expect(cache.napiTrees.lookup(tree.path, "typescript", () => old, never)?.root).toBe(tree.root);
      expect(
        cache.napiTrees.lookup(tree.path, "typescript", () => changed(old, fields), never),
        JSON.stringify(fields),
      ).toBeUndefined();
      expect(cache.stats()).toMatchObject({ files: 0, hits: 1, misses: 1, usedBytes: 0 });
    }
  });

  it("keeps each backend's trees on its own shelf: another backend's tree is a miss, and admitting the path replaces and frees it", () => {
    const cache = new ParseCache(1 << 30);
    const { tree, stats } = treeFor("a.ts");
    const released: number[][] = [];
    const store = { release: (ids: number[]) => released.push(ids) } as unknown as TreeStore;
    const engineTree: CachedTree<EngineTree> = { ...tree, root: { store, id: 7 } };
    const same = (): Buffer => Buffer.from(source);
    expect(cache.engineTrees.admit(engineTree, stats, Date.now())).toBe(true);
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => stats, same)).toBeUndefined();
    expect(cache.engineTrees.lookup(tree.path, "typescript", () => stats, same)?.root).toBe(engineTree.root);
    expect(cache.napiTrees.admit(tree, stats, Date.now())).toBe(true);
    expect(released).toEqual([[7]]);
    expect(cache.engineTrees.lookup(tree.path, "typescript", () => stats, same)).toBeUndefined();
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => stats, same)?.root).toBe(tree.root);
    expect(cache.stats()).toMatchObject({ files: 1, hits: 2, misses: 2 });
  });

  it("asks for the file's status only when it holds the path, and drops an entry whose file is gone", () => {
    const cache = new ParseCache(1 << 30);
    const { tree, stats } = treeFor("a.ts");
    const noStat = (): Stats => {
      throw new Error("a path the cache does not hold was stat'ed");
    };
    expect(cache.napiTrees.lookup(join(dir, "other.ts"), "typescript", noStat, never)).toBeUndefined();
    cache.napiTrees.admit(tree, changed(stats, { mtimeMs: 1000 }), 1000 + coarseMtimeMs);
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => undefined, never)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ files: 0, usedBytes: 0, misses: 2 });
  });

  it("is keyed by language too", () => {
    const cache = new ParseCache(1 << 30);
    const { tree, stats } = treeFor("a.ts");
    cache.napiTrees.admit(tree, stats, Date.now());
    expect(cache.napiTrees.lookup(tree.path, "tsx", () => stats, never)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ files: 1, misses: 1 });
  });

  it("compares the bytes while the mtime is within the coarse tick of the last check, and trusts it after", () => {
    const cache = new ParseCache(1 << 30);
    const { tree, stats } = treeFor("a.ts");
    const mtime = changed(stats, { mtimeMs: 10_000 });
    cache.napiTrees.admit(tree, mtime, 10_000);
    let reads = 0;
    const same = (): Buffer => {
      reads += 1;
      return Buffer.from(source);
    };
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => mtime, same, 10_000 + coarseMtimeMs - 1)?.root).toBe(
      tree.root,
    );
    expect(reads).toBe(1);
    // Checked less than a tick after the mtime: still not trusted.
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => mtime, same, 10_000 + coarseMtimeMs)?.root).toBe(
      tree.root,
    );
    expect(reads).toBe(2);
    // The last check was a full tick after the mtime: a change since would have moved it.
    expect(cache.napiTrees.lookup(tree.path, "typescript", () => mtime, never)?.root).toBe(tree.root);
    expect(
      cache.napiTrees.lookup(
        tree.path,
        "typescript",
        () => mtime,
        () => Buffer.from("const a = g(1);\n"),
      )?.root,
    ).toBe(tree.root);
  });

  it("drops a recent entry whose bytes differ or can no longer be read", () => {
    for (const read of [() => Buffer.from("const b = f(1);\n"), () => undefined]) {
      const cache = new ParseCache(1 << 30);
      const { tree, stats } = treeFor("a.ts");
      cache.napiTrees.admit(tree, stats, Date.now());
      expect(cache.napiTrees.lookup(tree.path, "typescript", () => stats, read)).toBeUndefined();
      expect(cache.stats().files).toBe(0);
    }
  });

  it("counts trees at their estimated native size, refuses one over the budget, and replaces an entry of the same path", () => {
    const treeCost = Buffer.byteLength(source) * treeBytesPerSourceByte;
    const cache = new ParseCache(treeCost);
    const { tree, stats } = treeFor("a.ts");
    expect(cache.napiTrees.admit(tree, stats, Date.now())).toBe(true);
    expect(cache.stats().usedBytes).toBe(treeCost);
    expect(cache.napiTrees.admit({ ...tree, root: napi().parse("TypeScript", source) }, stats, Date.now())).toBe(true);
    expect(cache.stats()).toMatchObject({ files: 1, usedBytes: treeCost, evicted: 0 });
    const big = treeFor("big.ts", `${source}${source}`);
    expect(cache.napiTrees.admit(big.tree, big.stats, Date.now())).toBe(false);
    expect(cache.stats().files).toBe(1);
  });

  it("keeps the results of a few patterns per file, within the budget, and forgets them with the file", () => {
    const cache = new ParseCache(1 << 30);
    const { tree, stats } = treeFor("a.ts");
    cache.napiTrees.admit(tree, stats, Date.now());
    const treeCost = cache.stats().usedBytes;
    for (let key = 0; key < 5; key++) cache.keepResult(tree, `p${key}`, found(key));
    expect(cache.result(tree, "p0")).toBeUndefined();
    expect(cache.result(tree, "p1")).toEqual(found(1));
    expect(cache.result(tree, "p4")).toEqual(found(4));
    const withResults = cache.stats().usedBytes;
    expect(withResults).toBe(treeCost + 4 * 128);
    cache.keepResult(tree, "p4", found(7));
    expect(cache.result(tree, "p4")).toEqual(found(7));
    expect(cache.stats().usedBytes).toBe(withResults);
    // A tree that is not (or no longer) the cached one keeps nothing.
    cache.keepResult({ ...tree, root: napi().parse("TypeScript", source) }, "p9", found(9));
    expect(cache.result(tree, "p9")).toBeUndefined();
    expect(cache.forget([tree.path])).toBe(1);
    expect(cache.stats()).toMatchObject({ files: 0, usedBytes: 0, invalidated: 1 });
    expect(cache.result(tree, "p1")).toBeUndefined();
  });

  it("costs a result by its matches, captures and error regions, and keeps none that does not fit", () => {
    const { tree, stats } = treeFor("a.ts");
    const treeCost = Buffer.byteLength(source) * treeBytesPerSourceByte;
    const cache = new ParseCache(treeCost + 600);
    cache.napiTrees.admit(tree, stats, Date.now());
    const match = {
      path: tree.path,
      language: "typescript",
      line: 0,
      column: 0,
      endLine: 0,
      start: 0,
      end: 3,
      text: "f(1)",
      captures: { N: { text: "1", start: 2, end: 3, multi: false } },
    };
    const regions = [
      { start: 0, end: 1, line: 0 },
      { start: 2, end: 3, line: 0 },
    ];
    const rich: FileMatches = {
      count: 1,
      matches: [match],
      errors: { site: { line: 0, column: 0, kind: "ERROR", near: "f" }, regions },
    };
    cache.keepResult(tree, "p", rich);
    // 128 per result, 48 per region, 256 per match and 2 per character of its text, 96 per capture and 2 per character.
    expect(cache.stats().usedBytes).toBe(treeCost + 128 + 2 * 48 + 256 + 2 * 4 + 96 + 2 * 1);
    // Fits the budget, not the room left.
    const another: FileMatches = { count: 1, matches: [match], errors: undefined };
    cache.keepResult(tree, "q", another);
    expect(cache.result(tree, "q")).toBeUndefined();
    expect(cache.stats()).toMatchObject({ files: 1, evicted: 0 });
    // Nor may a result push its own tree out, even one a new search has not touched yet.
    cache.beginSearch();
    cache.keepResult(tree, "q", another);
    expect(cache.stats()).toMatchObject({ files: 1, evicted: 0, usedBytes: treeCost + 586 });
  });

  it("refuses a tree over the whole budget without evicting anything for it", () => {
    const { tree, stats } = treeFor("a.ts");
    const cache = new ParseCache(Buffer.byteLength(source) * treeBytesPerSourceByte * 1.5);
    cache.napiTrees.admit(tree, stats, Date.now());
    cache.beginSearch();
    const big = treeFor("big.ts", `${source}${source}`);
    expect(cache.napiTrees.admit(big.tree, big.stats, Date.now())).toBe(false);
    expect(cache.stats()).toMatchObject({ files: 1, evicted: 0 });
  });

  it("forgets a written directory's files, not those of a sibling whose name starts the same", () => {
    const cache = new ParseCache(1 << 30);
    for (const name of ["src/a.ts", "src/b.ts", "srcx/c.ts"]) {
      mkdirSync(join(dir, dirname(name)), { recursive: true });
      const { tree, stats } = treeFor(name);
      cache.napiTrees.admit(tree, stats, Date.now());
    }
    expect(cache.forget([join(dir, "src")])).toBe(2);
    expect(cache.stats().files).toBe(1);
    expect(cache.forget([`${join(dir, "srcx")}/`])).toBe(1);
    expect(cache.forget([join(dir, "nothing")])).toBe(0);
  });

  it("says it is full once this search's trees leave less than a sixteenth of the budget", () => {
    const treeCost = Buffer.byteLength(source) * treeBytesPerSourceByte;
    const cache = new ParseCache(treeCost * 16);
    cache.beginSearch();
    for (let index = 0; index < 15; index++) {
      const { tree, stats } = treeFor(`f${index}.ts`);
      cache.napiTrees.admit(tree, stats, Date.now());
    }
    // Exactly a sixteenth left: not yet full.
    expect(cache.isFull()).toBe(false);
    const { tree, stats } = treeFor("f15.ts");
    cache.napiTrees.admit(tree, stats, Date.now());
    expect(cache.isFull()).toBe(true);
    // A new search may evict the previous one's trees: room again.
    cache.beginSearch();
    expect(cache.isFull()).toBe(false);
    cache.clear();
    expect(cache.stats()).toMatchObject({ files: 0, usedBytes: 0 });
  });
});

describe("the parseCacheBytes setting", () => {
  it("defaults to 256 MiB, turns the cache off at 0 and refuses a negative or non-finite budget", () => {
    expect(defaultParseCacheBytes).toBe(256 * 1024 * 1024);
    expect(createAstGrepParser().parseCache?.budgetBytes).toBe(defaultParseCacheBytes);
    expect(createAstGrepParser({ parseCacheBytes: 1024 }).parseCache?.budgetBytes).toBe(1024);
    expect(createParseCache(0)).toBeUndefined();
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createAstGrepParser({ parseCacheBytes: bad })).toThrow(
        expect.objectContaining({
          code: "invalid_input",
          message: `\`parseCacheBytes\` is \`${bad}\`; give a number of bytes, 0 or more (0 turns the parse cache off).`,
        }),
      );
    }
  });
});
