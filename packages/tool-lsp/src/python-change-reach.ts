/** Where a change to some lines of a Python module can be seen from the modules that import it. */
export type PythonChangeReach =
  /** Nothing an importer sees: comments, or the body of a function whose return type is declared. */
  | { kind: "confined" }
  /** The declarations the lines belong to: an importer that uses none of these names sees no change. */
  | { kind: "names"; names: string[] }
  /** Module-level lines that declare nothing by themselves (an import, `__all__`, a block): no scope tells. */
  | { kind: "module" };

interface CodeLine {
  indent: number;
  /** The line without its comment and trailing blanks. */
  code: string;
}

/** A `#` comment that pyright reads as a type (`# type: int`) is code, not a comment. */
const typeComment = /^#\s*type:/;

/** The line without its comment (a `#` outside quotes), trailing blanks dropped. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote !== undefined) {
      if (char === "\\") index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "#" && !typeComment.test(line.slice(index))) return line.slice(0, index).trimEnd();
  }
  return line.trimEnd();
}

function codeLines(text: string): CodeLine[] {
  return text.split("\n").map((line) => {
    const code = withoutComment(line);
    return { indent: code.length - code.trimStart().length, code: code.trim() };
  });
}

/**
 * Per line, whether a statement starts there: not inside brackets opened on an earlier line (a
 * signature's `) -> str:`, a call's arguments) nor inside a triple-quoted string (a docstring).
 */
function statementStarts(lines: readonly CodeLine[]): boolean[] {
  let depth = 0;
  let triple: string | undefined;
  return lines.map(({ code }) => {
    const starts = depth === 0 && triple === undefined;
    let quote: string | undefined;
    for (let index = 0; index < code.length; index += 1) {
      const rest = code.slice(index, index + 3);
      if (triple !== undefined) {
        if (rest === triple) {
          triple = undefined;
          index += 2;
        }
      } else if (quote !== undefined) {
        if (code[index] === "\\") index += 1;
        else if (code[index] === quote) quote = undefined;
      } else if (rest === '"""' || rest === "'''") {
        triple = rest;
        index += 2;
      } else if (code[index] === "'" || code[index] === '"') quote = code[index];
      else if ("([{".includes(code[index]!)) depth += 1;
      else if (")]}".includes(code[index]!)) depth = Math.max(0, depth - 1);
    }
    return starts;
  });
}

/** The code of some lines, comments and blank lines dropped: two texts with the same code differ only in comments. */
export function pythonCode(lines: string): string {
  return codeLines(lines)
    .filter((line) => line.code !== "")
    .map((line) => `${" ".repeat(line.indent)}${line.code}`)
    .join("\n");
}

const scopeStart = /^(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/;
/** `name =`, `name: T = …`, `name: T` at a line's start. */
const assigned = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::(?!=)|=(?!=))/;
/** `self.name =` / `cls.name =`: a method's body declares an attribute its class's users see. */
const attributeAssigned = /\b(?:self|cls)\.([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/g;

interface Scope {
  kind: "def" | "class";
  name: string;
  line: number;
}

/** The line that ends the signature starting at `start` (the `:` outside brackets), and whether it declares a return type. */
function signatureOf(lines: readonly CodeLine[], start: number): { end: number; returnDeclared: boolean } {
  let signature = "";
  let depth = 0;
  for (let index = start; index < lines.length && index < start + 50; index += 1) {
    const code = lines[index]!.code;
    signature += ` ${code}`;
    for (const char of code) {
      if (char === "(" || char === "[" || char === "{") depth += 1;
      else if (char === ")" || char === "]" || char === "}") depth -= 1;
    }
    if (depth <= 0 && code.endsWith(":")) return { end: index, returnDeclared: /\)\s*->/.test(signature) };
  }
  return { end: start, returnDeclared: false };
}

/**
 * The names through which the scopes around a change are used, innermost first: a function by its
 * name, a dunder method (`__init__`, `__call__`) and an attribute (`throughClass`) through their class.
 */
function namesOf(scopes: readonly Scope[], throughClass: boolean): string[] {
  const names: string[] = [];
  let viaClass = throughClass;
  for (const scope of scopes) {
    if (scope.kind === "def" && /^__\w+__$/.test(scope.name)) viaClass = true;
    else if (scope.kind === "def") names.push(scope.name);
    else if (viaClass) {
      names.push(scope.name);
      viaClass = false;
    }
  }
  return names;
}

/**
 * Where a change to the lines `[from, to)` of `text` (one Python module, the offsets at line starts)
 * can be seen from its importers, read from the indentation: lines inside a function whose return
 * type is declared change nothing another module sees (unless they assign `self.x`, `cls.x` or a
 * `global`); lines inside a function without one change its inferred return type, seen by its
 * callers; a declaration (`def`, `class`, `x = …`, `x: T`) is seen by whoever uses its name, and a
 * class's body by whoever uses the class.
 */
export function pythonChangeReach(text: string, from: number, to: number): PythonChangeReach {
  const above = codeLines(text.slice(0, from));
  // text.slice(0, from) ends with "\n": the last element is the empty start of the changed block.
  above.pop();
  const block = codeLines(text.slice(from, to)).filter((line) => line.code !== "");
  if (block.length === 0) return { kind: "confined" };
  const blockIndent = Math.min(...block.map((line) => line.indent));
  const all = codeLines(text);
  const starts = statementStarts(all);

  // The scopes around the block, innermost first.
  const scopes: Scope[] = [];
  let limit = blockIndent;
  for (let index = above.length - 1; index >= 0 && limit > 0; index -= 1) {
    const line = above[index]!;
    if (line.code === "" || line.indent >= limit || !starts[index]) continue;
    limit = line.indent;
    const scope = scopeStart.exec(line.code);
    if (scope !== null) scopes.push({ kind: scope[1] as "def" | "class", name: scope[2]!, line: index });
  }

  const names = new Set<string>();
  for (const match of block
    .map((line) => line.code)
    .join("\n")
    .matchAll(attributeAssigned))
    names.add(match[1]!);
  const innermost = scopes[0];
  const signature = innermost?.kind === "def" ? signatureOf(all, innermost.line) : undefined;
  // A line of a signature that spans lines (a parameter) changes the function itself.
  if (signature !== undefined && above.length <= signature.end) return { kind: "names", names: namesOf(scopes, false) };
  if (innermost?.kind === "def") {
    const leaks = names.size > 0 || block.some((line) => /^(?:global|nonlocal)\b/.test(line.code));
    // The body of a function with a declared return type: its callers see the same signature.
    if (!leaks && signature!.returnDeclared) return { kind: "confined" };
    if (block.some((line) => /^global\b/.test(line.code))) return { kind: "module" };
    return { kind: "names", names: [...names, ...namesOf(scopes, names.size > 0)] };
  }

  // The block's own declarations, at its outer indentation (a decorator belongs to the def or class below it).
  const following = codeLines(text.slice(from)).filter((line) => line.code !== "");
  for (const [index, line] of block.entries()) {
    if (line.indent !== blockIndent) continue;
    const declared = scopeStart.exec(line.code)?.[2] ?? assigned.exec(line.code)?.[1];
    if (declared !== undefined) names.add(declared);
    if (line.code.startsWith("@")) {
      const decorated = following
        .slice(index + 1)
        .find((next) => next.indent === blockIndent && !next.code.startsWith("@"));
      const name = decorated === undefined ? undefined : scopeStart.exec(decorated.code)?.[2];
      if (name !== undefined) names.add(name);
    }
  }
  for (const scope of scopes) names.add(scope.name);
  return names.size === 0 ? { kind: "module" } : { kind: "names", names: [...names] };
}
