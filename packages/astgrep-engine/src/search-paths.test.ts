import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PathSearchOptions, QueryInput, TreeStore } from "./engine-types.js";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();
const callQuery: QueryInput = {
  language: "TypeScript",
  config: { rule: { pattern: "f($X)" } },
  single: ["X"],
  multi: [],
  rewriting: false,
};

let workdir: string;
let outside: string;
beforeEach(() => {
  workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-engine-paths-")));
  outside = realpathSync(mkdtempSync(join(tmpdir(), "runbound-engine-outside-")));
});
afterEach(() => {
  rmSync(workdir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function write(name: string, content: string | Buffer): string {
  const path = join(workdir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function options(overrides: Partial<PathSearchOptions> = {}): PathSearchOptions {
  return {
    workdir,
    maxBytes: 1 << 20,
    literals: [],
    keepBytes: 0,
    treeCostPerByte: 30,
    answerMatches: 50,
    bundleBytes: 512 * 1024,
    ...overrides,
  };
}

async function search(store: TreeStore, paths: string[], overrides: Partial<PathSearchOptions> = {}) {
  return store.searchPaths(
    callQuery,
    paths,
    paths.map(() => 50),
    options(overrides),
    new engine!.SearchCancellation(),
  );
}

describe.runIf(engine !== undefined)("TreeStore.searchPaths", () => {
  it("refuses what the host's reader refuses, with the same reasons, and reads the rest with their status", async () => {
    const plain = write("a.ts", "f(1);\nf(2);\n");
    const fifo = join(workdir, "pipe.ts");
    execFileSync("mkfifo", [fifo]);
    const link = join(workdir, "link.ts");
    symlinkSync(plain, link);
    const directory = join(workdir, "dir.ts");
    mkdirSync(directory);
    writeFileSync(join(outside, "secret.ts"), "f(99);\n");
    // A directory on the path swapped for a symlink leading out: only the real path tells.
    symlinkSync(outside, join(workdir, "escape"));
    const paths = [
      plain,
      fifo,
      link,
      directory,
      join(workdir, "escape", "secret.ts"),
      write("big.ts", `f(${"1".repeat(2000)});\n`),
      write("binary.ts", Buffer.from([0x66, 0x28, 0x00, 0x29])),
      write("latin1.ts", Buffer.from([0x66, 0x28, 0xe9, 0x29, 0x3b])),
      join(workdir, "gone.ts"),
    ];
    const { outcomes, cancelled } = await search(new engine!.TreeStore(), paths, { maxBytes: 1000 });
    expect(cancelled).toBe(false);
    expect(outcomes.map((outcome) => [outcome.skipped ?? "read", outcome.code ?? ""])).toEqual([
      ["read", ""],
      ["not_regular", ""],
      ["symlink", ""],
      ["not_regular", ""],
      ["outside_workdir", ""],
      ["too_large", ""],
      ["binary", ""],
      ["not_utf8", ""],
      ["unreadable", "ENOENT"],
    ]);
    const status = statSync(plain);
    expect(outcomes[0]!.identity).toEqual({ size: status.size, mtimeMs: status.mtimeMs, ino: status.ino });
    expect(outcomes[0]!.result?.count).toBe(2);
    expect(outcomes.slice(1).every((outcome) => outcome.result === undefined && outcome.identity === undefined)).toBe(
      true,
    );
  });

  it("never blocks on a FIFO: the call answers while no writer ever opens it", async () => {
    const fifo = join(workdir, "held.ts");
    execFileSync("mkfifo", [fifo]);
    const started = performance.now();
    const { outcomes } = await search(new engine!.TreeStore(), [fifo]);
    expect(outcomes[0]!.skipped).toBe("not_regular");
    // A blocking open would never return; a generous bound so a loaded machine does not fail it.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("reads but does not parse a file lacking a literal, and says which files start with a BOM", async () => {
    const withLiteral = write("a.ts", "\ufeffreturn_value(f(1));\n");
    const without = write("b.ts", "f(2);\n");
    const { outcomes } = await search(new engine!.TreeStore(), [withLiteral, without], { literals: ["return_value"] });
    expect(outcomes[0]!.result?.count).toBe(1);
    expect(outcomes[0]!.bom).toBe(true);
    expect(outcomes[1]!.skipped).toBeUndefined();
    expect(outcomes[1]!.identity?.size).toBe(6);
    expect(outcomes[1]!.result).toBeUndefined();
  });

  it("materializes the first matches of the whole call by path order, and counts every one", async () => {
    // Files finish in no order on the engine's threads; the answer still holds the first three by
    // file order and position, whichever file was parsed first.
    const paths = Array.from({ length: 40 }, (_, index) =>
      write(`f${String(index).padStart(2, "0")}.ts`, "f(1);\nf(2);\n".repeat(50)),
    );
    const { outcomes } = await search(new engine!.TreeStore(), paths, { answerMatches: 3 });
    expect(outcomes.map((outcome) => outcome.result!.count)).toEqual(paths.map(() => 100));
    expect(outcomes.map((outcome) => outcome.result!.matches.length)).toEqual([3, ...paths.slice(1).map(() => 0)]);
    expect(outcomes[0]!.result!.matches.map((match) => match.line)).toEqual([0, 1, 2]);
  });

  it("materializes every match of every file for a rewrite", async () => {
    const paths = [write("a.ts", "f(1);\nf(2);\n"), write("b.ts", "f(3);\n")];
    const { outcomes } = await search(new engine!.TreeStore(), paths, { answerMatches: 0xffff_ffff });
    expect(outcomes.map((outcome) => outcome.result!.matches.length)).toEqual([2, 1]);
  });

  it("keeps trees while the room lasts, hands back their bytes, and keeps none without room", async () => {
    const source = "f(1);\n".repeat(100);
    const paths = Array.from({ length: 6 }, (_, index) => write(`k${index}.ts`, source));
    const store = new engine!.TreeStore();
    // Room for three trees at 30 bytes per source byte.
    const kept = await search(store, paths, { keepBytes: source.length * 30 * 3 + 10 });
    const ids = kept.outcomes.flatMap((outcome) => (outcome.id === undefined ? [] : [outcome.id]));
    expect(ids).toHaveLength(3);
    expect(store.size).toBe(3);
    const keptOutcome = kept.outcomes.find((outcome) => outcome.id !== undefined)!;
    expect(keptOutcome.bytes?.toString("utf8")).toBe(source);
    expect(
      kept.outcomes.filter((outcome) => outcome.id === undefined).every((outcome) => outcome.bytes === undefined),
    ).toBe(true);
    const again = await store.searchTrees(
      callQuery,
      ids,
      ids.map(() => 1),
    );
    expect(again.map((result) => result.count)).toEqual([100, 100, 100]);
    const none = await search(store, paths);
    expect(none.outcomes.every((outcome) => outcome.id === undefined)).toBe(true);
    expect(store.size).toBe(3);
  });

  it("parses every bundle, those deferred behind another one too, and the small files beside them", async () => {
    const bundle = `${"f(1);\n".repeat(30_000)}`;
    const paths = [
      ...Array.from({ length: 4 }, (_, index) => write(`bundle${index}.ts`, bundle)),
      ...Array.from({ length: 8 }, (_, index) => write(`small${index}.ts`, "f(2);\n")),
    ];
    const { outcomes } = await search(new engine!.TreeStore(), paths, { maxBytes: 1 << 22, bundleBytes: 64 * 1024 });
    expect(outcomes.map((outcome) => outcome.result?.count)).toEqual([
      30_000, 30_000, 30_000, 30_000, 1, 1, 1, 1, 1, 1, 1, 1,
    ]);
  });

  it("stops between files when cancelled, answering `cancelled` and keeping nothing", async () => {
    const paths = Array.from({ length: 200 }, (_, index) => write(`c${index}.ts`, "f(1);\n".repeat(2000)));
    const store = new engine!.TreeStore();
    const cancellation = new engine!.SearchCancellation();
    const running = store.searchPaths(
      callQuery,
      paths,
      paths.map(() => 1),
      options({ keepBytes: 1 << 30 }),
      cancellation,
    );
    cancellation.cancel();
    const { outcomes, cancelled } = await running;
    expect(cancelled).toBe(true);
    expect(outcomes).toEqual([]);
    expect(store.size).toBe(0);
  });

  it("rejects a rule that does not compile at the call, naming it", () => {
    const bad: QueryInput = { ...callQuery, config: { rule: { kind: "no_such_kind_here" } } };
    expect(() => new engine!.TreeStore().searchPaths(bad, [], [], options(), new engine!.SearchCancellation())).toThrow(
      /no_such_kind_here/,
    );
  });
});

// The FIFO test needs mkfifo (coreutils); say so rather than fail obscurely.
if (engine !== undefined && spawnSync("mkfifo", ["--version"]).error !== undefined)
  throw new Error("mkfifo (coreutils) is needed by these tests.");
