import fc from "fast-check";

/** The part of an exported JSON Schema the generators read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

/**
 * Hostile and careless inputs, as JSON text rather than values, so they can hold what a value
 * cannot round-trip: `1e999` (Infinity once parsed), `-0`, own `__proto__` keys, nesting deeper
 * than any recursive serializer survives.
 */
const text = (value: unknown): string => JSON.stringify(value);

function objectText(fields: ReadonlyArray<readonly [string, string]>): string {
  return `{${fields.map(([key, value]) => `${text(key)}:${value}`).join(",")}}`;
}

// Over 64 KiB and over 1 MiB; units JSON escapes six-fold stay at the smaller size to keep the run short.
const hugeString = fc.oneof(
  fc.tuple(fc.constantFrom("a", "é", "😀", "../"), fc.constantFrom(70_000, 1_100_000)).map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length))),
  fc.constantFrom("\u0000", "\n", "\u0001").map((unit) => unit.repeat(70_000)),
);

const oddString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\r\n", "\u202e", "\ud800", "ファイル", "null", "undefined", "NaN", "__proto__", "constructor", "toString", "hasOwnProperty", "$", "$$$", "\\"),
);

/**
 * Paths a model or an attacker might try: escapes, absolute paths, special files of the fixture
 * workdir, odd bytes. Paths outside point into the test's own temporary tree, so a confinement bug
 * shows up in its snapshot instead of touching the machine.
 */
export function pathArbitrary(workdir: string, outside: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("a.txt", "src/main.ts", "py/app.py", "src", ".", "new.txt", "deep/er/new.ts", "fifo", "link-out", "link-out/secret.txt", "link-out/new.txt", "link-loop", "dangling") },
    { weight: 3, arbitrary: fc.constantFrom("..", "../outside/secret.txt", "../outside/new.txt", "src/../../outside/x", "./../outside", `${outside}/secret.txt`, `${outside}/new.txt`, `${workdir}/../outside/new.txt`, `${outside}/../new.txt`, "/", "/dev/null", "~/x", "C:\\x", "\\\\server\\share\\x") },
    { weight: 2, arbitrary: fc.constantFrom("a.txt\u0000.png", "a.txt/", "a.txt/x", "fifo/x", "dir\u0000/x", "ünïcødé/ファイル.txt", "\u202etxt.exe", "a\nb", " ", "", `${workdir}`, `${workdir}/a.txt`) },
    { weight: 1, arbitrary: fc.constantFrom("a".repeat(300), "x/".repeat(3000) + "f", `${"d".repeat(255)}/${"e".repeat(256)}`) },
    { weight: 1, arbitrary: oddString },
  );
}

const offset = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 5 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom("99999999999999999999", "4294967296", "9007199254740993", "-1", "", "1e3", "a") },
);
const count = fc.oneof(fc.constantFrom("", ",0", ",1", ",3", ",99999999999999999999", ",-2"), fc.integer({ min: 0, max: 30 }).map((value) => `,${value}`));
const fileLine = fc.constantFrom("hello", "world", "export function greet(name: string) {", "  console.log(name);", "}", "", "changed");
const hunkLine = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(" ", "-", "+"), fileLine).map(([mark, line]) => mark + line) },
  { weight: 1, arbitrary: fc.constantFrom("\\ No newline at end of file", "", "@@", "--- a/a.txt", "+++ b/a.txt", "?what") },
  { weight: 1, arbitrary: oddString.map((value) => `${["+", "-", " "][value.length % 3]}${value}`) },
);
// Counts that agree with the lines most of the time, so hunks reach placement, not just parsing.
const hunk = fc.tuple(fc.array(hunkLine, { maxLength: 8 }), fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(count, count) }), offset, offset).map(
  ([lines, counts, oldStart, newStart]) => {
    const [oldCount, newCount] = counts ?? [`,${lines.filter((line) => !line.startsWith("+")).length}`, `,${lines.filter((line) => !line.startsWith("-")).length}`];
    return `@@ -${oldStart}${oldCount} +${newStart}${newCount} @@\n${lines.join("\n")}\n`;
  },
);

/** Unified diffs with hostile headers and hunks: offsets past any file, renames out of the workdir, binary markers, modes, quoted names. */
export function patchArbitrary(paths: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const header = fc.tuple(paths, paths).chain(([from, to]) =>
    fc.constantFrom(
      `--- a/${from}\n+++ b/${to}\n`,
      `--- ${from}\n+++ ${to}\n`,
      `--- /dev/null\n+++ b/${to}\n`,
      `--- a/${from}\n+++ /dev/null\n`,
      `diff --git a/${from} b/${to}\nsimilarity index 90%\nrename from ${from}\nrename to ${to}\n--- a/${from}\n+++ b/${to}\n`,
      `diff --git a/${from} b/${to}\nrename from ${from}\nrename to ${to}\n`,
      `diff --git a/${from} b/${to}\ncopy from ${from}\ncopy to ${to}\n`,
      `diff --git a/${from} b/${to}\nnew file mode 120000\n--- /dev/null\n+++ b/${to}\n`,
      `diff --git a/${from} b/${to}\nold mode 100644\nnew mode 100755\n`,
      `diff --git a/${from} b/${to}\nindex 0000000..1111111\nGIT binary patch\nliteral 5\nMcmZ?d\n\n`,
      `diff --git a/${from} b/${to}\nBinary files a/${from} and b/${to} differ\n`,
      `--- "a/\\303\\244\\000${from}"\n+++ "b/\\.\\.\\/${to}"\n`,
      `diff --git "a/${from}" "b/${to}"\n--- "a/${from}\n+++ b/${to}"\n`,
    ),
  );
  const section = fc.tuple(header, fc.array(hunk, { maxLength: 3 })).map(([head, hunks]) => head + hunks.join(""));
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.array(section, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([sections, crlf]) => (crlf ? sections.join("").replace(/\n/g, "\r\n") : sections.join(""))) },
    { weight: 1, arbitrary: fc.constantFrom("", "\n", "@@ -1 +1 @@\n", "--- a/a.txt\n", "--- a/a.txt\n+++ b/a.txt\n", "diff --git\n", `--- a/a.txt\n+++ b/a.txt\n${"@@ -1 +1 @@\n-hello\n+hi\n".repeat(5000)}`) },
    { weight: 1, arbitrary: oddString },
  );
}

/** ast-grep patterns: valid code, lone metavariables, broken syntax, deep and very long patterns. */
export const patternArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("$A", "$$$A", "$_", "console.log($A)", "console.log($$$ARGS)", "function $F($$$P) { $$$B }", "def $F($$$A): $$$B", "print($A)", "$A.$B", "$A + $A", "let $X = $Y", "import $X from $Y", "$X.dispose()") },
  { weight: 2, arbitrary: fc.constantFrom("", " ", "\u0000", "(", "}", "{{{", "$", "$$", "$$$", "$1", "$a", "$$$$A", "/*", "'", "`${", "\ud800") },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("a+", "(", "[", "$A.", "f(", "!"), fc.constantFrom(10, 1_000, 20_000)).map(([unit, times]) => unit.repeat(times)) },
  { weight: 1, arbitrary: fc.constantFrom(`${"$A.$B.$C.$D ".repeat(200)}`, "x".repeat(1_100_000)) },
  { weight: 1, arbitrary: oddString },
);

const language = fc.oneof(fc.constantFrom("typescript", "tsx", "javascript", "python", "go", "rust", "json", "markdown", "html", "sql"), fc.constantFrom("", "TypeScript", "ts", "py", "cobol", "__proto__", "toString", "../typescript"), oddString);

const editId = fc.oneof(fc.integer({ min: 0, max: 40 }).map((value) => `edit_${value}`), fc.constantFrom("edit_", "edit_-1", "edit_1.5", "edit_99999999999999999999", "__proto__", "constructor", "toString", ""), oddString);

/** Numbers a limit should survive: zero, negatives, fractions, beyond 2^53, Infinity (`1e999` parses to it), `-0`, and numbers as strings. */
const numberText = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 100 }).map(String) },
  fc.constantFrom("0", "-0", "-1", "1", "1.5", "2147483648", "9007199254740993", "1e308", "1e999", "-1e999", "1e-400", "99999999999999999999999", '"10"', '"NaN"', '"Infinity"', "null"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(text),
);

function deepText(depth: number): string {
  return `${"[".repeat(depth)}{"__proto__":{"path":"a.txt"}}${"]".repeat(depth)}`;
}

/** Any JSON value, as text: random values, deep nesting, prototype keys. */
export const anyJsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(text) },
  { weight: 1, arbitrary: fc.constantFrom(deepText(10), deepText(5_000), deepText(100_000), '{"__proto__":{"path":"a.txt"}}', '{"constructor":{"prototype":{"x":1}}}', "[]", "null", "true", '"a.txt"', "1e999") },
  { weight: 1, arbitrary: hugeString.map(text) },
);

function stringFor(field: string, workdir: string, outside: string, schema: JsonSchema): fc.Arbitrary<string> {
  const paths = pathArbitrary(workdir, outside);
  if (schema.enum !== undefined) return fc.oneof(fc.constantFrom(...schema.enum.map(String)), oddString);
  if (/path|file/.test(field)) return paths;
  if (/patch|diff/.test(field)) return patchArbitrary(paths);
  if (/pattern|rewrite/.test(field)) return patternArbitrary;
  if (/language/.test(field)) return language;
  if (/id$/.test(field)) return editId;
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom("hello", "hello\n", "world", "\n", "", "console.log(1)") }, { weight: 2, arbitrary: oddString }, { weight: 1, arbitrary: hugeString });
}

/** A value of the field's own type, hostile within it. */
function typedValue(field: string, schema: JsonSchema, workdir: string, outside: string): fc.Arbitrary<string> {
  const types = ([] as string[]).concat(schema.type ?? (schema.enum !== undefined ? "string" : []));
  const fitting: Array<fc.Arbitrary<string>> = [];
  if (types.includes("string")) fitting.push(stringFor(field, workdir, outside, schema).map(text));
  if (types.includes("integer") || types.includes("number")) fitting.push(numberText);
  if (types.includes("boolean")) fitting.push(fc.constantFrom("true", "false"));
  if (types.includes("array")) fitting.push(fc.array(typedValue(field, schema.items ?? {}, workdir, outside), { maxLength: 4 }).map((items) => `[${items.join(",")}]`));
  if (types.includes("object") && schema.properties !== undefined) fitting.push(inputArbitrary(schema, workdir, outside));
  return fitting.length > 0 ? fc.oneof(...fitting) : anyJsonText;
}

/** A value a careless caller sends instead: null, another type, a number as a string. */
const wrongValue: fc.Arbitrary<string> = fc.oneof(fc.constant("null"), fc.constantFrom('"true"', "0", "1", "[]", "{}", '"1"', '[""]'), anyJsonText);

type Field = readonly [string, string];

function objectOf(fields: ReadonlyArray<Field | undefined>): string {
  return objectText(fields.filter((field): field is Field => field !== undefined));
}

/**
 * Near-valid input for a tool with `schema`: mostly every field of its own type with hostile values
 * (optional ones now and then left out); sometimes one field of the wrong type, null or missing, or an
 * undeclared or prototype key besides.
 */
export function inputArbitrary(schema: JsonSchema, workdir: string, outside: string): fc.Arbitrary<string> {
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties ?? {});
  const fields = Object.entries(schema.properties ?? {}).map(([name, fieldSchema]) => {
    const value = typedValue(name, fieldSchema, workdir, outside).map((typed): Field => [name, typed]);
    return required.has(name) ? value : fc.option(value, { freq: 2, nil: undefined });
  });
  const wellTyped = fc.tuple(...fields);
  const extraKey = fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "toString", "extra", ""), oddString);
  return fc.oneof(
    { weight: 6, arbitrary: wellTyped.map(objectOf) },
    {
      weight: 2,
      arbitrary: fc.tuple(wellTyped, fc.nat(), fc.option(wrongValue, { freq: 4, nil: undefined })).map(([typed, pick, wrong]) => {
        const name = names[pick % Math.max(names.length, 1)];
        return objectOf([...typed.filter((field) => field?.[0] !== name), ...(name === undefined || wrong === undefined ? [] : [[name, wrong] as const])]);
      }),
    },
    { weight: 1, arbitrary: fc.tuple(wellTyped, fc.array(fc.tuple(extraKey, anyJsonText), { minLength: 1, maxLength: 2 })).map(([typed, extra]) => objectOf([...typed, ...extra])) },
  );
}
