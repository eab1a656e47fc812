// HCL, Nix, Solidity and Zig: no @ast-grep/lang-* package has them; the native engine has them built
// in (as the ast-grep CLI has) and hands them to napi from its binary. C++, Bash, Rust, C and PHP: the
// engine has copies of them at the CLI's versions, used over their packages. Compared with the CLI's counts.
// Under RUNBOUND_ASTGREP_ENGINE=napi (the package's second test pass) they are refused instead, as
// engine-grammars-missing.test.ts checks in every pass.
import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { astGrepCli, cliCount } from "./__fixtures__/ast-grep-cli.js";
import { parserRunsInTempWorkspaces } from "./__fixtures__/create-parser-run.js";
import { nativeEngine } from "./engine-binding.js";
import { engineGrammars, packagedGrammarsInEngine } from "./grammar-catalog.js";
import { astGrepPlugin, createAstGrepParser } from "./index.js";

const engineOn = process.env["RUNBOUND_ASTGREP_ENGINE"] !== "napi";
// CI builds the engine; a missing binary there is a failure, not a quiet skip.
if (engineOn && process.env["RUNBOUND_REQUIRE_REAL"] === "1" && nativeEngine() === undefined)
  throw new Error(
    "RUNBOUND_REQUIRE_REAL is set but @runbound/astgrep-engine did not load; build it with npm run build.",
  );
const runs = parserRunsInTempWorkspaces();

const terraform = `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

variable "region" {
  type    = string
  default = "us-west-2"
}

provider "aws" {
  region = var.region
}

resource "aws_instance" "web" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = "t3.micro"
  tags = {
    Name = "web"
  }
}

resource "aws_s3_bucket" "logs" {
  bucket = "example-logs"
}

output "instance_ip" {
  value = aws_instance.web.public_ip
}
`;

const derivation = `{ pkgs ? import <nixpkgs> {} }:

let
  version = "1.2.3";
  src = pkgs.fetchFromGitHub {
    owner = "example";
    repo = "tool";
    rev = "v\${version}";
    sha256 = "0000000000000000000000000000000000000000000000000000";
  };
in
pkgs.stdenv.mkDerivation {
  pname = "tool";
  inherit version src;
  buildInputs = with pkgs; [ openssl zlib ];
  meta = with pkgs.lib; {
    license = licenses.mit;
    platforms = platforms.unix;
  };
}
`;

const token = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Token {
    mapping(address => uint256) public balances;
    address public owner;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        owner = msg.sender;
        balances[msg.sender] = 1000;
    }

    function transfer(address to, uint256 amount) external {
        require(balances[msg.sender] >= amount, "insufficient");
        balances[msg.sender] -= amount;
        balances[to] += amount;
        emit Transfer(msg.sender, to, amount);
    }

    function burn(uint256 amount) external {
        require(msg.sender == owner, "owner only");
        balances[msg.sender] -= amount;
    }
}
`;

const hello = `const std = @import("std");

pub fn main() !void {
    const stdout = std.io.getStdOut().writer();
    try stdout.print("Hello, {s}!\\n", .{"world"});
    var sum: u32 = 0;
    for (0..10) |i| {
        sum += @intCast(i);
    }
    try stdout.print("{d}\\n", .{sum});
}
`;

const vectors = `#include <vector>
#define _GNU_SOURCE 1

template <typename T>
T add(T a, T b) {
  return a + b;
}

int main() {
  std::vector<int> values;
  values.push_back(add(1, 2));
  values.push_back(add(3, 4));
  if (values.size() > 1) {
    return 0;
  }
  return _GNU_SOURCE;
}
`;

const counter = `#include <stdio.h>

static int count = 0;

int add(int a, int b) { return a + b; }

int main(void) {
  printf("%d\n", add(1, 2));
  printf("done\n");
  count++;
  return 0;
}
`;

const words = `use std::collections::HashMap;

fn main() {
    let mut map = HashMap::new();
    map.insert("a", 1);
    map.insert("b", 2);
    if let Some(value) = map.get("a") {
        println!("{}", value);
    }
    let total: i32 = map.values().sum();
    println!("{}", total);
}
`;

const script = `#!/usr/bin/env bash
set -euo pipefail
name="world"
echo "hello $name"
if [ -n "$name" ]; then
  echo "set"
fi
for file in *.txt; do
  cat "$file"
done
`;

// PHP without `<?php`: the CLI's php_only grammar (the engine's copy) reads it as code, where
// @ast-grep/lang-php's full grammar reads it as inline text and finds nothing.
const untagged = `$total = 123 + add(1, 2);
if ($total > 123) {
    echo add($total, 123);
}
`;

const tagged = `<?php
function add($a, $b) {
    return $a + $b;
}
$total = 123 + add(1, 2);
echo add($total, 123);
`;

const cases = [
  { language: "cpp", file: "main.cpp", source: vectors, pattern: "$V.push_back($X)" },
  { language: "cpp", file: "main.cpp", source: vectors, pattern: "add($A, $B)" },
  // A literal `_GNU_SOURCE`: with `@ast-grep/lang-cpp`'s `_` for `$` it would be a metavariable
  // matching every return; the CLI's C++ (and the engine's copy) substitute U+10000 instead.
  { language: "cpp", file: "main.cpp", source: vectors, pattern: "return _GNU_SOURCE;" },
  { language: "c", file: "main.c", source: counter, pattern: "printf($$$ARGS);" },
  { language: "c", file: "main.c", source: counter, pattern: "add($A, $B)" },
  { language: "rust", file: "main.rs", source: words, pattern: "$M.insert($K, $V)" },
  { language: "rust", file: "main.rs", source: words, pattern: "println!($$$ARGS)" },
  { language: "bash", file: "run.sh", source: script, pattern: "echo $$$ARGS" },
  { language: "bash", file: "run.sh", source: script, pattern: "cat $FILE" },
  { language: "php", file: "untagged.php", source: untagged, pattern: "123" },
  { language: "php", file: "untagged.php", source: untagged, pattern: "add($A, $B)" },
  { language: "php", file: "tagged.php", source: tagged, pattern: "123" },
  { language: "php", file: "tagged.php", source: tagged, pattern: "add($A, $B)" },
  { language: "hcl", file: "main.tf", source: terraform, pattern: "resource $TYPE $NAME $BODY" },
  { language: "hcl", file: "main.tf", source: terraform, pattern: "$A = $B" },
  { language: "nix", file: "default.nix", source: derivation, pattern: "with $A; $B" },
  { language: "nix", file: "default.nix", source: derivation, pattern: "pkgs.fetchFromGitHub $ARGS" },
  {
    language: "solidity",
    file: "Token.sol",
    source: token,
    pattern: "function $F($$$PARAMETERS) external { $$$BODY }",
  },
  { language: "solidity", file: "Token.sol", source: token, pattern: "event $E($$$PARAMETERS);" },
  { language: "zig", file: "main.zig", source: hello, pattern: "try $W.print($$$ARGS)" },
];

describe.runIf(engineOn && nativeEngine() !== undefined)("the native engine's own grammars", () => {
  it.each(cases)(
    "$language `$pattern`: as many matches as `ast-grep run`, by id and from the file's extension",
    async ({ language, file, source, pattern }) => {
      const run = await runs.runIn({ [file]: source });
      const expected = cliCount(["run", "-p", pattern, "-l", language], runs.workspace().dir);
      expect(expected).toBeGreaterThan(0);
      const byId = await run.call("ast_grep", { pattern, language });
      expect(byId.structured?.["total"], resultText(byId)).toBe(expected);
      expect(byId.structured?.["scanned"], resultText(byId)).toEqual({ [language]: 1 });
      const byFile = await run.call("ast_grep", { pattern, path: file });
      expect(byFile.structured?.["total"], resultText(byFile)).toBe(expected);
    },
  );

  it("reads PHP files with and without `<?php` as the CLI does, with the engine's php_only over the installed package", async () => {
    const run = await runs.runIn({ "untagged.php": untagged, "tagged.php": tagged });
    const directory = runs.workspace().dir;
    for (const [path, inFile] of [
      ["untagged.php", 3],
      ["tagged.php", 2],
    ] as const) {
      const expected = cliCount(["run", "-p", "123", "-l", "php"], join(directory, path));
      expect(expected, path).toBe(inFile);
      const found = await run.call("ast_grep", { pattern: "123", path });
      expect(found.structured?.["total"], resultText(found)).toBe(expected);
    }
    const expected = cliCount(["run", "-p", "123", "-l", "php"], directory);
    expect(expected).toBe(5);
    const found = await run.call("ast_grep", { pattern: "123" });
    expect(found.structured?.["total"], resultText(found)).toBe(expected);
    expect(found.structured?.["scanned"], resultText(found)).toEqual({ php: 2 });
    expect(createAstGrepParser().languages().available.get("php")?.source).toBe("engine");
  });

  it("runs rules in them as `ast-grep scan --inline-rules` does, and names the kinds near an unknown one", async () => {
    const run = await runs.runIn({ "Token.sol": token, "main.tf": terraform });
    const rule = "rule: {kind: function_definition, has: {kind: call_expression, regex: ^require, stopBy: end}}";
    const expected = cliCount(
      ["scan", "--inline-rules", `id: case\nlanguage: solidity\n${rule}`],
      runs.workspace().dir,
    );
    expect(expected).toBe(2);
    const found = await run.call("ast_grep", { rule, language: "solidity" });
    expect(found.structured?.["total"], resultText(found)).toBe(expected);
    const blocks = "rule: {kind: block, has: {kind: identifier, regex: ^resource$}}";
    const blocksExpected = cliCount(
      ["scan", "--inline-rules", `id: case\nlanguage: hcl\n${blocks}`],
      runs.workspace().dir,
    );
    const blocksFound = await run.call("ast_grep", { rule: blocks, language: "hcl" });
    expect(blocksFound.structured?.["total"], resultText(blocksFound)).toBe(blocksExpected);
    const misspelt = await run.call("ast_grep", { rule: "kind: contract_declaraton", language: "solidity" });
    expect(resultErrorCode(misspelt)).toBe("invalid_input");
    expect(resultText(misspelt)).toContain("`contract_declaration`");
  });

  it("reads a Solidity statement pattern in a function body, finding what the CLI finds with that context", async () => {
    const run = await runs.runIn({ "Token.sol": token });
    const object = {
      context: "contract C { function f() public { require($COND, $MESSAGE); } }",
      selector: "call_expression",
    };
    const expected = cliCount(
      ["scan", "--inline-rules", `id: case\nlanguage: solidity\nrule: {pattern: ${JSON.stringify(object)}}`],
      runs.workspace().dir,
    );
    expect(expected).toBe(2);
    const byObject = await run.call("ast_grep", { pattern: object, language: "solidity" });
    expect(byObject.structured?.["total"], resultText(byObject)).toBe(expected);
    // The CLI reads the bare pattern as a whole file, where it is an ERROR node, and finds nothing.
    const bare = await run.call("ast_grep", { pattern: "require($COND, $MESSAGE)", language: "solidity" });
    expect(bare.structured?.["total"], resultText(bare)).toBe(expected);
    expect(resultText(bare)).toContain("statement in a function body");
  });

  it("stages and applies an ast_edit in Solidity that writes what the CLI's fix writes", async () => {
    const run = await runs.runIn({ "Token.sol": token });
    const pattern = {
      context: "contract C { function f() public { require($COND, $MESSAGE); } }",
      selector: "call_expression",
    };
    const rewrite = "require($COND, string.concat('Token: ', $MESSAGE))";
    const edit = await run.call("ast_edit", { pattern, rewrite, language: "solidity" });
    expect(edit.isError, resultText(edit)).toBeUndefined();
    const accepted = await run.call("resolve", { edit_id: "edit_1", action: "accept" });
    expect(resultText(accepted)).toContain("wrote 2 replacements in 1 file");
    const copy = join(runs.workspace().dir, "copy", "Token.sol");
    mkdirSync(dirname(copy));
    writeFileSync(copy, token);
    const rule = `id: case\nlanguage: solidity\nrule: {pattern: ${JSON.stringify(pattern)}}\nfix: ${JSON.stringify(rewrite)}`;
    const rewritten = spawnSync(astGrepCli, ["scan", "--inline-rules", rule, "-U", copy], { encoding: "utf8" });
    expect(rewritten.status, rewritten.stderr).toBe(0);
    expect(readFileSync(copy, "utf8")).not.toBe(token);
    expect(readFileSync(join(runs.workspace().dir, "Token.sol"), "utf8")).toBe(readFileSync(copy, "utf8"));
  });

  it("says in the parser's status where each grammar comes from, and which need the engine", async () => {
    const table = createAstGrepParser().languages();
    for (const { id } of engineGrammars) expect(table.available.get(id)?.source).toBe("engine");
    for (const id of packagedGrammarsInEngine) expect(table.available.get(id)?.source).toBe("engine");
    expect(table.available.get("typescript")?.source).toBe("napi");
    const provider = astGrepPlugin.resourceProviders[0]!;
    const instance = await provider.create({ workdir: tmpdir(), signal: new AbortController().signal });
    try {
      const status = await instance.describe?.();
      expect(status).toMatch(/^\d+ grammars — built into @ast-grep\/napi: typescript, tsx, javascript, html, css; /);
      expect(status).toContain("; built into the native engine (unavailable without it): hcl, nix, solidity, zig");
      // The workspace installs every @ast-grep/lang-* package: the engine's copies are used over five.
      expect(status).toContain(
        "; built into the native engine (their @ast-grep/lang-* packages without it): rust, c, cpp, php, bash; ",
      );
      expect(status).toContain(
        "; installed, not used (the native engine's copy, the ast-grep CLI's grammar, is): @ast-grep/lang-rust, @ast-grep/lang-c, @ast-grep/lang-cpp, @ast-grep/lang-php, @ast-grep/lang-bash",
      );
      expect(status).not.toContain("unavailable without the native engine");
    } finally {
      await instance.dispose?.();
    }
  });
});
