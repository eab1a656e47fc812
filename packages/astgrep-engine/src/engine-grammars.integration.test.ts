// The grammars compiled into the engine that napi lacks (HCL, Nix, Solidity, Zig, and the copies of
// the packaged C++, Bash, Rust, C and PHP), against the ast-grep CLI 0.51.1, which has the same grammar
// crates built in.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { QueryInput } from "./engine-types.js";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();
/** The ast-grep CLI of @ast-grep/cli (its postinstall puts the platform's binary there). */
const cli = join(dirname(createRequire(import.meta.url).resolve("@ast-grep/cli/package.json")), "ast-grep");
const scratch = mkdtempSync(join(tmpdir(), "runbound-engine-grammars-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** How many matches `ast-grep run` finds for a pattern in one source. */
function cliCount(language: string, extension: string, pattern: string, source: string): number {
  const file = join(scratch, `source.${extension}`);
  writeFileSync(file, source);
  const run = spawnSync(cli, ["run", "--pattern", pattern, "--lang", language, "--json=stream", file], {
    encoding: "utf8",
  });
  if (run.error !== undefined || run.status !== 0)
    throw new Error(
      `\`ast-grep run --pattern ${pattern} --lang ${language}\` failed: ${run.error?.message ?? run.stderr}`,
    );
  return run.stdout.split("\n").filter((line) => line.trim() !== "").length;
}

function query(language: string, pattern: string): QueryInput {
  return { language, config: { rule: { pattern } }, single: [], multi: [], rewriting: false };
}

const cases = [
  {
    language: "cpp",
    extension: "cpp",
    source:
      "#define _GNU_SOURCE 1\ntemplate <typename T>\nT add(T a, T b) { return a + b; }\nint main() {\n  std::vector<int> values;\n  values.push_back(add(1, 2));\n  if (values.size() > 1) { return 0; }\n  return _GNU_SOURCE;\n}\n",
    // `_GNU_SOURCE` is a name: C and C++ substitute U+10000 for `$`, not `_`.
    patterns: ["$V.push_back($X)", "return _GNU_SOURCE;"],
  },
  {
    language: "c",
    extension: "c",
    source:
      '#include <stdio.h>\nint add(int a, int b) { return a + b; }\nint main(void) {\n  printf("%d\\n", add(1, 2));\n  return 0;\n}\n',
    patterns: ["add($A, $B)", "printf($$$ARGS);"],
  },
  {
    language: "rust",
    extension: "rs",
    source:
      'fn main() {\n    let mut map = std::collections::HashMap::new();\n    map.insert("a", 1);\n    map.insert("b", 2);\n    println!("{:?}", map);\n}\n',
    patterns: ["$M.insert($K, $V)", "println!($$$ARGS)"],
  },
  {
    language: "bash",
    extension: "sh",
    source: 'name="world"\necho "hello $name"\nfor file in *.txt; do\n  cat "$file"\ndone\n',
    patterns: ["echo $$$ARGS", "cat $FILE"],
  },
  // PHP as the CLI reads it (tree-sitter-php's php_only grammar): code with or without `<?php`, where
  // @ast-grep/lang-php's full grammar reads a file without the tag as text.
  {
    language: "php",
    extension: "php",
    source: "$total = 123 + add(1, 2);\necho add(123, $total);\n",
    patterns: ["123", "add($A, $B)"],
  },
  {
    language: "php",
    extension: "php",
    source: "<?php\n$total = 123 + add(1, 2);\necho add(123, $total);\n",
    patterns: ["123", "add($A, $B)"],
  },
  {
    language: "hcl",
    extension: "tf",
    source:
      'resource "aws_instance" "web" {\n  ami           = "ami-123"\n  instance_type = "t3.micro"\n}\n\nresource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n}\n\noutput "ip" {\n  value = aws_instance.web.public_ip\n}\n',
    patterns: ["resource $TYPE $NAME $BODY", "$A = $B"],
  },
  {
    language: "nix",
    extension: "nix",
    source:
      '{ pkgs ? import <nixpkgs> {} }:\nlet\n  version = "1.2.3";\nin\npkgs.stdenv.mkDerivation {\n  pname = "tool";\n  inherit version;\n  buildInputs = with pkgs; [ openssl zlib ];\n  meta = with pkgs.lib; { license = licenses.mit; };\n}\n',
    patterns: ["with $A; $B", "pkgs.stdenv.mkDerivation $ARGS"],
  },
  {
    language: "solidity",
    extension: "sol",
    source:
      'pragma solidity ^0.8.20;\n\ncontract Token {\n    mapping(address => uint256) public balances;\n\n    function transfer(address to, uint256 amount) external {\n        require(balances[msg.sender] >= amount, "insufficient");\n        balances[msg.sender] -= amount;\n        balances[to] += amount;\n    }\n\n    function burn(uint256 amount) external {\n        require(amount > 0, "zero");\n        balances[msg.sender] -= amount;\n    }\n}\n',
    // A Solidity pattern is read as a whole file, where only declarations parse (the CLI reads
    // `require($C, $M)` as an ERROR node and finds nothing).
    patterns: ["function $F($$$PARAMETERS) external { $$$BODY }", "contract $C { $$$BODY }"],
  },
  {
    language: "zig",
    extension: "zig",
    source:
      'const std = @import("std");\n\npub fn main() !void {\n    const stdout = std.io.getStdOut().writer();\n    try stdout.print("Hello, {s}!\\n", .{"world"});\n    try stdout.print("{d}\\n", .{42});\n}\n',
    patterns: ["try $W.print($$$ARGS)"],
  },
];

describe.runIf(engine !== undefined)("the engine's own grammars", () => {
  it("lists its grammars with the symbol napi reads each from the binary, its `$` substitute and kinds", () => {
    const grammars = engine!.engineGrammars();
    expect(
      grammars.map(({ name, languageSymbol, expandoChar, extensions }) => ({
        name,
        languageSymbol,
        expandoChar,
        extensions,
      })),
    ).toEqual([
      {
        name: "bash",
        languageSymbol: "runbound_astgrep_engine_bash",
        expandoChar: "$",
        extensions: ["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"],
      },
      { name: "c", languageSymbol: "runbound_astgrep_engine_c", expandoChar: "\u{10000}", extensions: ["c", "h"] },
      {
        name: "cpp",
        languageSymbol: "runbound_astgrep_engine_cpp",
        expandoChar: "\u{10000}",
        extensions: ["cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino"],
      },
      {
        name: "hcl",
        languageSymbol: "runbound_astgrep_engine_hcl",
        expandoChar: "µ",
        extensions: ["hcl", "nomad", "tf", "tfvars", "workflow"],
      },
      { name: "nix", languageSymbol: "runbound_astgrep_engine_nix", expandoChar: "_", extensions: ["nix"] },
      { name: "php", languageSymbol: "runbound_astgrep_engine_php", expandoChar: "µ", extensions: ["php"] },
      { name: "rust", languageSymbol: "runbound_astgrep_engine_rust", expandoChar: "µ", extensions: ["rs"] },
      { name: "solidity", languageSymbol: "runbound_astgrep_engine_solidity", expandoChar: "$", extensions: ["sol"] },
      { name: "zig", languageSymbol: "runbound_astgrep_engine_zig", expandoChar: "_", extensions: ["zig"] },
    ]);
    const kinds = Object.fromEntries(grammars.map((grammar) => [grammar.name, grammar.kinds]));
    expect(kinds["hcl"]).toEqual(expect.arrayContaining(["attribute", "block", "identifier"]));
    expect(kinds["nix"]).toEqual(expect.arrayContaining(["binding", "with_expression"]));
    expect(kinds["solidity"]).toEqual(expect.arrayContaining(["contract_declaration", "function_definition"]));
    expect(kinds["solidity"]).toEqual([...kinds["solidity"]!].sort());
    expect(kinds["cpp"]).toEqual(expect.arrayContaining(["template_declaration", "call_expression"]));
    expect(kinds["rust"]).toEqual(expect.arrayContaining(["function_item", "macro_invocation"]));
    expect(kinds["bash"]).toEqual(expect.arrayContaining(["command", "for_statement"]));
    expect(kinds["php"]).toEqual(expect.arrayContaining(["php_tag", "function_call_expression", "integer"]));
  });

  it.each(cases.flatMap((entry) => entry.patterns.map((pattern) => ({ ...entry, pattern }))))(
    "$language `$pattern`: as many matches as the ast-grep CLI",
    async ({ language, extension, source, pattern }) => {
      const expected = cliCount(language, extension, pattern, source);
      expect(expected).toBeGreaterThan(0);
      const store = new engine!.TreeStore();
      const { results } = await store.searchSources(query(language, pattern), [Buffer.from(source)], [0], false);
      expect(results[0]!.count).toBe(expected);
      expect(results[0]!.errors).toBeUndefined();
    },
  );
});
