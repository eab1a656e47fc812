// Per language, the few line shapes the mutation planner reads and writes. Only single-line
// declarations are used, and every mutation replaces text within one line, so no finding anywhere
// moves to another line and checker findings before and after compare line by line.
const escape = (name) => name.replace(/[$]/g, "\\$");

export const SYNTAX = {
  ts: {
    // `export function name(params): Type {` with no overloads (an overload would break on its own).
    func: /^export function ([A-Za-z_$][\w$]*)(<[^>]*>)?\((.*)\)(?:: (.+))? \{$/,
    typeDeclaration: /^export (?:class|interface) ([A-Z][\w$]*)\b/,
    unexport: (line) => line.replace(/^export /, ""),
    removable: /^export function ([A-Za-z_$][\w$]*)(?:<[^>]*>)?\(.*\{$/,
    plainParameter: (parameter) => /^[A-Za-z_$][\w$]*: [^=?()]+$/.test(parameter),
    extraParameter: "benchExtra: number",
    simpleType: { string: "symbol", number: "symbol", boolean: "symbol" },
    typedParameter: /^([A-Za-z_$][\w$]*): (string|number|boolean)$/,
    returnTypeTo: (type) => (type === "void" ? "number" : "void"),
    undefinedName: "benchUndefinedName",
    returnLine: /^(\s+)return (\S.*);$/,
    comment: " // bench: no-op control",
    uses: (name) => new RegExp(`(?<![\\w$.])${escape(name)}(?![\\w$])`),
    calls: (name) => new RegExp(`(?<![\\w$.])${escape(name)}\\(`),
    isTest: (file) => /\.(spec|test)\.ts$/.test(file),
  },
  py: {
    func: /^def ([A-Za-z]\w*)()\((.*)\)(?: -> (.+))?:$/,
    typeDeclaration: /^class ([A-Z]\w*)\b/,
    // Removing a module-level name without moving lines: comment its one-line assignment out.
    removable: /^([A-Za-z]\w*)(?:: [^=]+)? = .+$/,
    unexport: (line) => `# ${line}`,
    plainParameter: (parameter) => /^\w+(?:: [^=*]+)?$/.test(parameter) && parameter !== "self" && parameter !== "cls",
    extraParameter: "bench_extra: int",
    typedParameter: /^(\w+): (str|int|bool)$/,
    simpleType: { str: "bytes", int: "bytes", bool: "bytes" },
    returnTypeTo: (type) => (type === "None" ? "int" : "None"),
    undefinedName: "bench_undefined_name",
    returnLine: /^(\s+)return (\S.*)$/,
    comment: "  # bench: no-op control",
    // `module.name(` is how much Python calls across files.
    uses: (name) => new RegExp(`(?<!\\w)${name}(?!\\w)`),
    calls: (name) => new RegExp(`(?<!\\w)${name}\\(`),
    isTest: (file) => /(^|\/)tests?\//.test(file),
  },
  go: {
    func: /^func ([A-Z]\w*)()\((.*)\) ?(.*?) ?\{$/,
    typeDeclaration: /^type ([A-Z]\w*) /,
    removable: /^func ([A-Z]\w*)\(/,
    unexport: (line) => line.replace(/^func ([A-Z])/, (_, first) => `func ${first.toLowerCase()}`),
    plainParameter: (parameter) => /^\w+ [\w.*[\]]+$/.test(parameter) && !parameter.includes("..."),
    extraParameter: "benchExtra int",
    typedParameter: /^(\w+) (string|int|bool)$/,
    simpleType: { string: "[]byte", int: "string", bool: "string" },
    returnTypeTo: (type) => (type === "int" ? "string" : "int"),
    undefinedName: "benchUndefinedName",
    returnLine: /^(\s+)return (\S.*)$/,
    comment: " // bench: no-op control",
    // Go callers in other packages write `pkg.Name(`; in the same package, `Name(`.
    uses: (name) => new RegExp(`(?<![\\w])${name}(?!\\w)`),
    calls: (name) => new RegExp(`(?<![\\w])${name}\\(`),
    isTest: (file) => file.endsWith("_test.go"),
  },
};
