// The (language, pattern, source, should-match) cases of ast-grep's own unit tests, read from the
// sources of its crates: calls of the test helpers whose pattern and source are string literals.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

/** Rust language type → our language id, the CLI's `-l` id, and a file extension both read with it. */
export const languages = {
  Bash: { id: "bash", cli: "bash", extension: "sh" },
  C: { id: "c", cli: "c", extension: "c" },
  Cpp: { id: "cpp", cli: "cpp", extension: "cpp" },
  CSharp: { id: "csharp", cli: "csharp", extension: "cs" },
  Css: { id: "css", cli: "css", extension: "css" },
  Dart: { id: "dart", cli: "dart", extension: "dart" },
  Elixir: { id: "elixir", cli: "elixir", extension: "ex" },
  Go: { id: "go", cli: "go", extension: "go" },
  Haskell: { id: "haskell", cli: "haskell", extension: "hs" },
  Hcl: { id: "hcl", cli: "hcl", extension: "tf" },
  Html: { id: "html", cli: "html", extension: "html" },
  Java: { id: "java", cli: "java", extension: "java" },
  JavaScript: { id: "javascript", cli: "javascript", extension: "js" },
  Json: { id: "json", cli: "json", extension: "json" },
  Kotlin: { id: "kotlin", cli: "kotlin", extension: "kt" },
  Lua: { id: "lua", cli: "lua", extension: "lua" },
  Markdown: { id: "markdown", cli: "markdown", extension: "md" },
  Nix: { id: "nix", cli: "nix", extension: "nix" },
  Php: { id: "php", cli: "php", extension: "php" },
  Python: { id: "python", cli: "python", extension: "py" },
  Ruby: { id: "ruby", cli: "ruby", extension: "rb" },
  Rust: { id: "rust", cli: "rust", extension: "rs" },
  Scala: { id: "scala", cli: "scala", extension: "scala" },
  Solidity: { id: "solidity", cli: "solidity", extension: "sol" },
  Swift: { id: "swift", cli: "swift", extension: "swift" },
  Tsx: { id: "tsx", cli: "tsx", extension: "tsx" },
  TypeScript: { id: "typescript", cli: "typescript", extension: "ts" },
  Yaml: { id: "yaml", cli: "yaml", extension: "yml" },
  Zig: { id: "zig", cli: "zig", extension: "zig" },
};

/** Read one Rust string literal (`"…"` with escapes, `r"…"`, `r#"…"#`) at `index`; undefined if none starts there. */
export function readRustString(text, index) {
  const raw = /^r(#*)"/.exec(text.slice(index, index + 20));
  if (raw !== null) {
    const closing = `"${raw[1]}`;
    const start = index + raw[0].length;
    const end = text.indexOf(closing, start);
    return end < 0 ? undefined : { value: text.slice(start, end), end: end + closing.length };
  }
  if (text[index] !== '"') return undefined;
  let value = "";
  for (let position = index + 1; position < text.length; position++) {
    const character = text[position];
    if (character === '"') return { value, end: position + 1 };
    if (character !== "\\") {
      value += character;
      continue;
    }
    const next = text[++position];
    if (next === "n") value += "\n";
    else if (next === "t") value += "\t";
    else if (next === "r") value += "\r";
    else if (next === "0") value += "\0";
    else if (next === "u") {
      const close = text.indexOf("}", position);
      value += String.fromCodePoint(Number.parseInt(text.slice(position + 2, close), 16));
      position = close;
    } else if (next === "x") {
      value += String.fromCharCode(Number.parseInt(text.slice(position + 1, position + 3), 16));
      position += 2;
    } else if (next === "\n") {
      // A backslash before a line break continues the string without the break and the next line's indentation.
      while (/\s/.test(text[position + 1] ?? "")) position++;
    } else value += next;
  }
  return undefined;
}

/**
 * The text with every comment blanked out (same length, line breaks kept, so offsets and line numbers
 * stay): a helper call the crate's authors commented out (`// test_match("a = 123", …)`, kept as a
 * known failure or a TODO) is no case of their test suite. String and character literals are skipped
 * whole, so a `//` inside one is not taken for a comment.
 */
export function withoutComments(text) {
  let output = "";
  let position = 0;
  const blank = (end) => {
    output += text.slice(position, end).replace(/[^\n]/g, " ");
    position = end;
  };
  while (position < text.length) {
    const rest = text.slice(position, position + 3);
    const previous = text[position - 1] ?? "";
    if (rest[0] === '"' || (/^r#*"/.test(text.slice(position, position + 20)) && !/\w/.test(previous))) {
      const end = readRustString(text, position)?.end ?? text.length;
      output += text.slice(position, end);
      position = end;
    } else if (rest[0] === "'") {
      // A character literal (`'"'`, `'\''`); otherwise a lifetime (`'a`), which needs no skipping.
      const literal = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/.exec(
        text.slice(position, position + 12),
      );
      const end = position + (literal?.[0].length ?? 1);
      output += text.slice(position, end);
      position = end;
    } else if (rest.startsWith("//")) {
      const newline = text.indexOf("\n", position);
      blank(newline < 0 ? text.length : newline);
    } else if (rest.startsWith("/*")) {
      // Rust block comments nest.
      let depth = 0;
      let end = position;
      do {
        if (text.startsWith("/*", end)) {
          depth++;
          end += 2;
        } else if (text.startsWith("*/", end)) {
          depth--;
          end += 2;
        } else end++;
      } while (depth > 0 && end < text.length);
      blank(end);
    } else {
      output += text[position];
      position++;
    }
  }
  return output;
}

/**
 * Whether the function the call at `offset` sits in is marked `#[ignore]`: the crate's authors keep
 * such a test as a known failure (`a;b;c`, a multi-node pattern), so `cargo test` does not run it.
 */
function inIgnoredTest(text, offset) {
  const functions = [...text.slice(0, offset).matchAll(/\bfn\s+\w+/g)];
  const enclosing = functions[functions.length - 1];
  if (enclosing === undefined) return false;
  const lines = text.slice(0, enclosing.index).split("\n");
  // The attribute lines right above `fn` (the last element is the start of the `fn` line itself).
  for (let index = lines.length - 2; index >= 0 && /^\s*#\[.*\]\s*$/.test(lines[index]); index--) {
    if (/^\s*#\[ignore\b/.test(lines[index])) return true;
  }
  return false;
}

function skipSpace(text, index) {
  let position = index;
  for (;;) {
    while (/\s/.test(text[position] ?? "")) position++;
    if (text.startsWith("//", position))
      position = text.indexOf("\n", position) < 0 ? text.length : text.indexOf("\n", position);
    else return position;
  }
}

/** The helper calls `name(lit, lit)` or `name(lit, lit, Lang)` in a file, with the index of each. */
function helperCalls(text) {
  const calls = [];
  const call = /\b(test_match|test_non_match|test_match_lang|test_non_match_lang)\s*\(/g;
  for (const found of text.matchAll(call)) {
    let position = skipSpace(text, found.index + found[0].length);
    const pattern = readRustString(text, position);
    if (pattern === undefined) continue;
    position = skipSpace(text, pattern.end);
    if (text[position] !== ",") continue;
    const source = readRustString(text, skipSpace(text, position + 1));
    if (source === undefined) continue;
    position = skipSpace(text, source.end);
    let language;
    if (text[position] === ",") {
      const name = /^\s*(\w+)\s*,?\s*\)/.exec(text.slice(position + 1));
      // A third argument that is not a language type (a strictness) is another helper's call.
      if (name === null || languages[name[1]] === undefined) continue;
      language = name[1];
    } else if (text[position] !== ")") continue;
    calls.push({ helper: found[1], pattern: pattern.value, source: source.value, language, offset: found.index });
  }
  return calls;
}

/** The language a file's own `test_match` helper runs in: the one it hands to `test_match_lang` or `Pattern::new`. */
function fileLanguage(text) {
  const delegated = /test_(?:non_)?match_lang\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)\s*\)/.exec(text);
  if (delegated !== null && languages[delegated[1]] !== undefined) return delegated[1];
  const direct = /Pattern::new\(\s*\w+\s*,\s*(\w+)\s*\)/.exec(text);
  if (direct !== null && languages[direct[1]] !== undefined) return direct[1];
  return undefined;
}

/** Every `.rs` file under `directory` (unsorted). */
export function rustFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...rustFiles(path));
    else if (entry.name.endsWith(".rs")) files.push(path);
  }
  return files;
}

/**
 * Every case of the crates under `crateDirectories`, with where it comes from, and how many helper
 * calls of the tests were left out as commented out or inside an `#[ignore]` test.
 */
export function extractCases(crateDirectories) {
  const cases = [];
  const leftOut = { commentedOut: 0, ignored: 0 };
  for (const crate of crateDirectories) {
    for (const file of rustFiles(join(crate, "src")).sort()) {
      const raw = readFileSync(file, "utf8");
      const text = withoutComments(raw);
      const testsStart = text.indexOf("#[cfg(test)]");
      if (testsStart < 0 && !text.startsWith("#![cfg(test)]")) continue;
      const defaultLanguage = fileLanguage(text);
      const calls = helperCalls(text).filter((call) => call.offset >= testsStart);
      leftOut.commentedOut += helperCalls(raw).filter((call) => call.offset >= testsStart).length - calls.length;
      for (const call of calls) {
        if (inIgnoredTest(text, call.offset)) {
          leftOut.ignored++;
          continue;
        }
        const language = call.language ?? defaultLanguage;
        if (language === undefined) continue;
        const line = text.slice(0, call.offset).split("\n").length;
        cases.push({
          origin: `${basename(crate)}/${file.slice(crate.length + 1)}:${line}`,
          language,
          pattern: call.pattern,
          source: call.source,
          shouldMatch: !call.helper.includes("non_match"),
        });
      }
    }
  }
  return { cases, leftOut };
}
