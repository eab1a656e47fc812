import { describe, expect, it } from "vitest";
import type { QueryInput, TreeStore } from "./engine-types.js";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();

function query(language: string, rule: object, options: Partial<QueryInput> = {}): QueryInput {
  return { language, config: { rule }, single: [], multi: [], rewriting: false, ...options };
}

function bytes(text: string): Buffer {
  return Buffer.from(text, "utf8");
}

function newStore(): TreeStore {
  return new engine!.TreeStore();
}

/** The UTF-16 column of a UTF-16 offset in a JS string. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

describe.runIf(engine !== undefined)("TreeStore.searchSources", () => {
  it("counts every match of a TypeScript pattern and materializes only the first ones wanted", async () => {
    const source = "const a: number = f(1);\nf(2, 3);\nfunction g(): number {\n  return f(4);\n}\n";
    const { results, ids } = await newStore().searchSources(
      query("TypeScript", { pattern: "f($X)" }, { single: ["X"] }),
      [bytes(source)],
      [1],
      false,
    );
    expect(ids).toEqual([]);
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result!.count).toBe(2);
    expect(result!.errors).toBeUndefined();
    const start = source.indexOf("f(1)");
    expect(result!.matches).toEqual([
      {
        line: 0,
        column: start,
        endLine: 0,
        start,
        end: start + 4,
        text: "f(1)",
        captures: [{ name: "X", text: "1", start: start + 2, end: start + 3, multi: false }],
      },
    ]);
  });

  it("carries the text of the metavariables a rule's `transform` defines, with no span", async () => {
    const config = {
      rule: { pattern: "f($X)" },
      transform: { UPPER: { convert: { source: "$X", toCase: "upperCase" } } },
    };
    const { results } = await newStore().searchSources(
      { ...query("TypeScript", {}), config, single: ["X"], transformed: ["UPPER"] },
      [bytes("f(abc);\n")],
      [1],
      false,
    );
    expect(results[0]!.matches[0]!.captures).toEqual([
      { name: "X", text: "abc", start: 2, end: 5, multi: false },
      { name: "UPPER", text: "ABC", start: -1, end: -1, multi: false },
    ]);
  });

  it("gives a count and no matches when none are wanted, per source in the order given", async () => {
    const sources = ["console.log(a);\nconsole.log(b, c);\nconsole.warn(d);\n", "log(x);\n", "console.log();\n"];
    const { results } = await newStore().searchSources(
      query("JavaScript", { pattern: "console.log($$$ARGS)" }, { multi: ["ARGS"] }),
      sources.map(bytes),
      [5, 5, 0],
      false,
    );
    expect(results.map((result) => result.count)).toEqual([2, 0, 1]);
    expect(results[2]!.matches).toEqual([]);
    const [first, second] = results[0]!.matches;
    expect(first!.text).toBe("console.log(a)");
    expect(second).toMatchObject({ line: 1, column: 0, endLine: 1, text: "console.log(b, c)" });
    const text = sources[0]!;
    expect(second!.captures).toEqual([
      { name: "ARGS", text: "b, c", start: text.indexOf("b, c"), end: text.indexOf("b, c") + 4, multi: true },
    ]);
  });

  it("reads JSX in Tsx sources, with matches spanning lines", async () => {
    const source = "const view = (\n  <Button onClick={go}>\n    Go\n  </Button>\n);\nconst other = <Label />;\n";
    const store = newStore();
    const { results } = await store.searchSources(
      query("Tsx", { pattern: "<Button $$$PROPS>$$$CHILDREN</Button>" }, { multi: ["PROPS"] }),
      [bytes(source)],
      [1],
      false,
    );
    expect(results[0]!.errors).toBeUndefined();
    expect(results[0]!.count).toBe(1);
    expect(results[0]!.matches[0]).toMatchObject({
      line: 1,
      column: 2,
      endLine: 3,
      start: source.indexOf("<Button"),
      end: source.indexOf("</Button>") + 9,
    });
    const props = source.indexOf("onClick");
    expect(results[0]!.matches[0]!.captures).toEqual([
      { name: "PROPS", text: "onClick={go}", start: props, end: props + 12, multi: true },
    ]);
    const selfClosing = await store.searchSources(query("Tsx", { pattern: "<$TAG />" }), [bytes(source)], [0], false);
    expect(selfClosing.results[0]!.count).toBe(1);
  });

  it("answers UTF-16 offsets and columns, as a JS string indexes them, on lines with non-ASCII text", async () => {
    // é is one UTF-16 unit and two UTF-8 bytes; 😀 and 👍🏽 are surrogate pairs (four UTF-8 bytes per code point).
    const source = '// ✓ déjà vu 😀\nconst s = "é😀👍🏽"; call(x, "ü");\ncall(y, z);\n';
    const { results } = await newStore().searchSources(
      query("TypeScript", { pattern: "call($A, $B)" }, { single: ["A", "B"] }),
      [bytes(source)],
      [2],
      false,
    );
    const [onSecondLine, onThirdLine] = results[0]!.matches;
    const start = source.indexOf("call(x");
    const end = source.indexOf(");\ncall(y") + 1;
    expect(onSecondLine).toEqual({
      line: 1,
      column: columnOf(source, start),
      endLine: 1,
      start,
      end,
      text: source.slice(start, end),
      captures: [
        { name: "A", text: "x", start: source.indexOf("x,"), end: source.indexOf("x,") + 1, multi: false },
        { name: "B", text: '"ü"', start: source.indexOf('"ü"'), end: source.indexOf('"ü"') + 3, multi: false },
      ],
    });
    expect(onSecondLine!.column).toBe(start - source.indexOf("const"));
    expect(onThirdLine).toMatchObject({ line: 2, column: 0, start: source.indexOf("call(y"), text: "call(y, z)" });
  });

  it("gives an empty $$$ capture start and end -1", async () => {
    const { results } = await newStore().searchSources(
      query("TypeScript", { pattern: "foo($$$ARGS)" }, { multi: ["ARGS"] }),
      [bytes("foo();\n")],
      [1],
      false,
    );
    expect(results[0]!.matches[0]!.captures).toEqual([{ name: "ARGS", text: "", start: -1, end: -1, multi: true }]);
  });

  it("reports the first ERROR node with its line, UTF-16 column and the code near it", async () => {
    // The ERROR node is the `+`; what comes before it on its line is the declarator `y = café`.
    const source = "const café = 1;\nlet y = café +;\nconst x = ;\n";
    const { results } = await newStore().searchSources(
      query("TypeScript", { pattern: "café" }),
      [bytes(source)],
      [0],
      false,
    );
    const errors = results[0]!.errors;
    expect(results[0]!.count).toBeGreaterThan(0);
    expect(errors?.site).toEqual({ line: 1, column: 13, kind: "ERROR", near: "y = café +" });
    expect(errors?.regions[0]).toEqual({ start: source.indexOf("+;"), end: source.indexOf("+;") + 1, line: 1 });
    expect(errors?.regions.map((region) => region.line)).toEqual([1, 2]);
  });

  it("reports a MISSING token only when rewriting", async () => {
    const source = "foo(a;\n";
    const store = newStore();
    const rewriting = await store.searchSources(
      query("TypeScript", { pattern: "foo($A)" }, { rewriting: true }),
      [bytes(source)],
      [0],
      false,
    );
    expect(rewriting.results[0]!.errors).toEqual({
      site: { line: 0, column: 5, kind: "MISSING", near: ")" },
      regions: [],
    });
    const searching = await store.searchSources(
      query("TypeScript", { pattern: "foo($A)" }),
      [bytes(source)],
      [0],
      false,
    );
    expect(searching.results[0]!.errors).toBeUndefined();
  });

  it("reads invalid UTF-8 as U+FFFD instead of throwing", async () => {
    const source = Buffer.concat([bytes("foo("), Buffer.from([0xff, 0xfe]), bytes(");\nfoo(ok);\n")]);
    const { results } = await newStore().searchSources(
      query("TypeScript", { pattern: "foo($A)" }, { single: ["A"] }),
      [source],
      [2],
      false,
    );
    expect(results[0]!.count).toBe(2);
    expect(results[0]!.matches[1]).toMatchObject({ line: 1, start: "foo(\uFFFD\uFFFD);\n".length, text: "foo(ok)" });
  });

  it("refuses an unknown language and an invalid rule, naming the value", async () => {
    const store = newStore();
    await expect(async () =>
      store.searchSources(query("Klingon", { pattern: "x" }), [bytes("x")], [1], false),
    ).rejects.toThrow(/no grammar `Klingon`/);
    await expect(async () =>
      store.searchSources(query("TypeScript", { kind: "no_such_kind" }), [bytes("x")], [1], false),
    ).rejects.toThrow(/`no_such_kind` is invalid/);
    await expect(async () =>
      store.searchSources(query("TypeScript", { nope: 1 }), [bytes("x")], [1], false),
    ).rejects.toThrow(/unknown field `nope`/);
  });
});

describe.runIf(engine !== undefined)("TreeStore kept trees", () => {
  it("keeps trees for searchTrees, counts them in size, and lets them go on release and clear", async () => {
    const store = newStore();
    const kept = await store.searchSources(
      query("TypeScript", { pattern: "foo($A)" }),
      [bytes("foo(1);\n"), bytes("foo(2); bar(3);\n")],
      [0, 0],
      true,
    );
    expect(kept.results.map((result) => result.count)).toEqual([1, 1]);
    expect(kept.ids).toHaveLength(2);
    expect(new Set(kept.ids).size).toBe(2);
    expect(store.size).toBe(2);

    const unkept = await store.searchSources(
      query("TypeScript", { pattern: "foo($A)" }),
      [bytes("foo(9);\n")],
      [0],
      false,
    );
    expect(unkept.ids).toEqual([]);
    expect(store.size).toBe(2);

    const [firstId, secondId] = kept.ids as [number, number];
    const again = await store.searchTrees(
      query("TypeScript", { pattern: "$F($A)" }, { single: ["F", "A"] }),
      [secondId, firstId],
      [2, 1],
    );
    expect(again.map((result) => result.count)).toEqual([2, 1]);
    expect(again[0]!.matches.map((match) => match.text)).toEqual(["foo(2)", "bar(3)"]);
    expect(again[0]!.matches[1]!.captures).toEqual([
      { name: "F", text: "bar", start: 8, end: 11, multi: false },
      { name: "A", text: "3", start: 12, end: 13, multi: false },
    ]);
    expect(again[1]!.matches.map((match) => match.text)).toEqual(["foo(1)"]);

    store.release([firstId]);
    expect(store.size).toBe(1);
    await expect(
      store.searchTrees(query("TypeScript", { pattern: "foo($A)" }), [secondId, firstId], [0, 0]),
    ).rejects.toThrow(new RegExp(`holds no tree ${firstId}: it was released`));
    const stillKept = await store.searchTrees(query("TypeScript", { pattern: "bar($A)" }), [secondId], [0]);
    expect(stillKept.map((result) => result.count)).toEqual([1]);

    store.clear();
    expect(store.size).toBe(0);
    await expect(store.searchTrees(query("TypeScript", { pattern: "foo($A)" }), [secondId], [0])).rejects.toThrow(
      new RegExp(`holds no tree ${secondId}`),
    );
  });

  it("keeps each store's trees apart", async () => {
    const [one, other] = [newStore(), newStore()];
    await one.searchSources(query("TypeScript", { pattern: "x" }), [bytes("x;\n")], [0], true);
    expect(one.size).toBe(1);
    expect(other.size).toBe(0);
  });
});
