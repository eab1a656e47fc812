import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();
const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** The ast-grep CLI of @ast-grep/cli (its postinstall puts the platform's binary there). */
const cli = join(dirname(createRequire(import.meta.url).resolve("@ast-grep/cli/package.json")), "ast-grep");

/** One match as the CLI's `--json=stream` prints it (the fields compared). */
interface CliMatch {
  file: string;
  range: { byteOffset: { start: number; end: number }; start: { line: number } };
}

/** Where each match starts: `line:utf16Offset`, per file, in the order found. */
type Starts = Map<string, string[]>;

let sample: string;
let files: string[];

beforeAll(() => {
  // A copy, so sources edited while the test runs are read the same by both.
  sample = mkdtempSync(join(tmpdir(), "runbound-engine-cli-"));
  for (const directory of ["packages/runtime-kit/src", "packages/tool-kit/src"]) {
    cpSync(join(repositoryRoot, directory), join(sample, directory), {
      recursive: true,
      filter: (path) => !path.includes("__fixtures__"),
    });
  }
  files = readdirSync(sample, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => join(sample, path))
    .sort();
});

afterAll(() => {
  rmSync(sample, { recursive: true, force: true });
});

function cliStarts(pattern: string): Starts {
  const run = spawnSync(cli, ["run", "--pattern", pattern, "--lang", "ts", "--json=stream", sample], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error !== undefined || run.status !== 0)
    throw new Error(`\`${cli} run --pattern ${pattern}\` failed: ${run.error?.message ?? run.stderr}`);
  const starts: Starts = new Map();
  for (const line of run.stdout.split("\n").filter((text) => text !== "")) {
    const match = JSON.parse(line) as CliMatch;
    const path = relative(sample, resolve(match.file));
    const bytes = readFileSync(join(sample, path));
    // The CLI answers UTF-8 byte offsets; the engine UTF-16 ones, as a JS string counts.
    const start = bytes.subarray(0, match.range.byteOffset.start).toString("utf8").length;
    starts.set(path, [...(starts.get(path) ?? []), `${match.range.start.line}:${start}`]);
  }
  for (const matches of starts.values())
    matches.sort((left, right) => Number(left.split(":")[1]) - Number(right.split(":")[1]));
  return starts;
}

async function engineStarts(pattern: string): Promise<Starts> {
  const store = new engine!.TreeStore();
  const sources = files.map((file) => readFileSync(file));
  const { results } = await store.searchSources(
    { language: "TypeScript", config: { rule: { pattern } }, single: [], multi: [], rewriting: false },
    sources,
    files.map(() => 10_000),
    false,
  );
  const starts: Starts = new Map();
  results.forEach((result, index) => {
    expect(result.matches).toHaveLength(result.count);
    if (result.count > 0)
      starts.set(
        relative(sample, files[index]!),
        result.matches.map((match) => `${match.line}:${match.start}`),
      );
  });
  return starts;
}

describe.runIf(engine !== undefined)("the engine against the ast-grep CLI on this repository's sources", () => {
  it.each(["$A.$B($$$)", "const $X = $Y", "await $E"])(
    "finds the same matches at the same places for `%s`",
    async (pattern) => {
      const fromCli = cliStarts(pattern);
      const fromEngine = await engineStarts(pattern);
      expect(files.length).toBeGreaterThan(20);
      // Offsets differ between UTF-8 and UTF-16 only after non-ASCII text, which these sources have (`…`, `—`).
      expect(
        files.filter((file) => readFileSync(file).length !== readFileSync(file, "utf8").length).length,
      ).toBeGreaterThan(3);
      expect([...fromCli.values()].flat().length).toBeGreaterThan(20);
      expect(Object.fromEntries([...fromEngine].sort())).toEqual(Object.fromEntries([...fromCli].sort()));
    },
  );

  it("reports every ERROR region the CLI finds with a `kind: ERROR` rule, deep in clean code too", async () => {
    // ERROR nodes at the top level, in a type's parameters, three blocks down and in an arrow body,
    // between clean declarations: the engine walks only the subtrees tree-sitter marks as broken.
    const sources = [
      "interface Handle<out A = unknown, in out B> { a: A }\nfunction ok(x: number) { return x + 1; }\n",
      "class C {\n  method() {\n    if (x) { let y = 3 +; }\n  }\n  clean() { return 1; }\n}\nexport const w = (a, b) => { return a +* b };\n",
      "const café = 1;\nconst ok = café;\nfunction f() { if (café) { return é ^^ 2; } }\n",
    ];
    const directory = mkdtempSync(join(tmpdir(), "runbound-engine-errors-"));
    try {
      const paths = sources.map((source, index) => {
        const path = join(directory, `broken-${index}.ts`);
        writeFileSync(path, source);
        return path;
      });
      const rule = "id: error\nlanguage: ts\nrule: { kind: ERROR }";
      const run = spawnSync(cli, ["scan", "--inline-rules", rule, "--json=stream", directory], { encoding: "utf8" });
      if (run.error !== undefined || run.status !== 0)
        throw new Error(`\`${cli} scan\` failed: ${run.error?.message ?? run.stderr}`);
      const fromCli = new Map<string, string[]>();
      for (const line of run.stdout.split("\n").filter((text) => text !== "")) {
        const match = JSON.parse(line) as CliMatch;
        const bytes = readFileSync(resolve(directory, match.file));
        const utf16 = (offset: number): number => bytes.subarray(0, offset).toString("utf8").length;
        const key = relative(directory, resolve(directory, match.file));
        fromCli.set(key, [
          ...(fromCli.get(key) ?? []),
          `${utf16(match.range.byteOffset.start)}-${utf16(match.range.byteOffset.end)}`,
        ]);
      }
      const store = new engine!.TreeStore();
      const { results } = await store.searchSources(
        { language: "TypeScript", config: { rule: { pattern: "$A + $B" } }, single: [], multi: [], rewriting: false },
        paths.map((path) => readFileSync(path)),
        paths.map(() => 0),
        false,
      );
      const fromEngine = new Map(
        results.map((result, index) => [
          `broken-${index}.ts`,
          (result.errors?.regions ?? []).map((region) => `${region.start}-${region.end}`),
        ]),
      );
      expect([...fromCli.values()].flat().length).toBeGreaterThanOrEqual(5);
      expect(Object.fromEntries([...fromEngine].sort())).toEqual(Object.fromEntries([...fromCli].sort()));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
