// Grammars the ast-grep CLI has and no @ast-grep/lang-* package provides (HCL, Nix, Solidity, Zig),
// built from the very tree-sitter crates ast-grep-language locks, with the machine's C compiler, into
// the cache; handed to createAstGrepParser as `{ id, grammar }`, the way a host brings its own grammar.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { crateCache, fetchCrate, lockedVersion } from "./crates.mjs";

// Extensions and the `$` substitute as ast-grep-language declares them (src/lib.rs).
const specs = [
  { id: "hcl", extensions: ["hcl", "nomad", "tf", "tfvars", "workflow"], expandoChar: "µ" },
  { id: "nix", extensions: ["nix"], expandoChar: "_" },
  { id: "solidity", extensions: ["sol"] },
  { id: "zig", extensions: ["zig"], expandoChar: "_" },
];

/** Build (once) the grammar of one spec from its crate; the `{ id, grammar }` choice for createAstGrepParser. */
function buildGrammar(spec, languageCrate) {
  const name = `tree-sitter-${spec.id}`;
  const source = join(fetchCrate(name, lockedVersion(languageCrate, name)), "src");
  const libraryPath = join(crateCache, `${name}-${lockedVersion(languageCrate, name)}.so`);
  if (!existsSync(libraryPath)) {
    const files = ["parser.c", "scanner.c"].map((file) => join(source, file)).filter((file) => existsSync(file));
    const compile = spawnSync("cc", ["-shared", "-fPIC", "-O2", "-I", source, ...files, "-o", libraryPath], {
      encoding: "utf8",
    });
    if (compile.status !== 0)
      throw new Error(`Building ${name} failed (a C compiler is needed as \`cc\`): ${compile.stderr.slice(0, 2000)}`);
  }
  return {
    id: spec.id,
    grammar: {
      libraryPath,
      extensions: spec.extensions,
      languageSymbol: `tree_sitter_${spec.id}`,
      ...(spec.expandoChar === undefined ? {} : { expandoChar: spec.expandoChar }),
    },
  };
}

/** The four grammars, built against `languageCrate` (the unpacked ast-grep-language crate). */
export function crateGrammars(languageCrate) {
  return specs.map((spec) => buildGrammar(spec, languageCrate));
}
