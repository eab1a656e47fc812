#!/usr/bin/env bash
# Install the packed packages into new projects outside the repository, as a user would from the
# registry, and measure what each install weighs (du of node_modules):
#   1. @runbound/tool-astgrep with its peers tool-kit and valibot, its optional native engine and the
#      engine's linux-x64-gnu binary package (handed in as tarballs, as npm would fetch them from the
#      registry), and no grammar package;
#   2. the same plus @ast-grep/lang-python, installed next to it;
#   3. the runbound CLI (every tarball), which depends on the common grammars the native engine has no
#      copy of; then one more grammar installed next to it, as its README says
#      (`npm install @ast-grep/lang-ruby`).
# On the way it checks where grammars are found: in 1 only the built-in ones and the engine's (a
# Python search names the package to install), Python in 2, Python in a host project that installed
# only the grammar and links tool-astgrep from project 1 (found from the host's entry script, not
# from tool-astgrep's own directory), the common ones in 3 (C++ and Bash searched with the engine's
# copies, and PHP without `<?php` read as the ast-grep CLI reads it) and the added one after it.
# Usage: bash tooling/measure-install-size.sh <directory of packed .tgz files>
#   (pack them first: npm run pack:local -- <directory>)
set -uo pipefail
if [ "$#" -ne 1 ]; then echo "usage: bash tooling/measure-install-size.sh <directory of .tgz files>" >&2; exit 2; fi
packs=$(cd "$1" && pwd)
fail() { echo "install-size: $*" >&2; exit 1; }
shopt -s nullglob
tarballs=("$packs"/*.tgz)
[ "${#tarballs[@]}" -gt 0 ] || fail "no .tgz files in ${packs}; pack them with npm run pack:local -- ${packs}"
astgrep=("$packs"/runbound-tool-astgrep-*.tgz)
toolkit=("$packs"/runbound-tool-kit-*.tgz)
# The engine's own tarball (a version follows its name), and its platform package (linux-x64-gnu: the
# one built and published from this repository), its optional dependency.
engine=("$packs"/runbound-astgrep-engine-[0-9]*.tgz)
engine_binary=("$packs"/runbound-astgrep-engine-linux-x64-gnu-*.tgz)
# tool-astgrep's own dependency, handed in as a tarball as npm would fetch it from the registry.
runtime=("$packs"/runbound-runtime-kit-*.tgz)
[ "${#astgrep[@]}" -eq 1 ] && [ "${#toolkit[@]}" -eq 1 ] && [ "${#engine[@]}" -eq 1 ] && [ "${#engine_binary[@]}" -eq 1 ] && [ "${#runtime[@]}" -eq 1 ] || fail "expected one runbound-tool-astgrep-*.tgz, one runbound-tool-kit-*.tgz, one runbound-astgrep-engine-<version>.tgz and one runbound-astgrep-engine-linux-x64-gnu-*.tgz in ${packs}"
repository=$(cd "$(dirname "$0")/.." && pwd)
python_grammar=$(node -p "require('${repository}/packages/cli/package.json').dependencies['@ast-grep/lang-python']") \
  || fail "cannot read the @ast-grep/lang-python version from packages/cli/package.json"
# The grammars @ast-grep/napi builds in and those the native engine builds in (installed in every case
# here): its copies of packaged grammars (packagedGrammarsInEngine in tool-astgrep's grammar-catalog.ts,
# listed in the catalog's order), which are then not installable, and its own. And the @ast-grep/lang-*
# packages tool-astgrep lists as optional peers (grammar-packages.test.ts keeps that list equal to the
# grammar catalog and the CLI's dependencies).
engine_copies="rust,c,cpp,php,bash"
builtin_grammars="typescript,tsx,javascript,html,css,${engine_copies},hcl,nix,solidity,zig"
packaged_grammars=$(node -p "Object.keys(require('${repository}/packages/tool-astgrep/package.json').peerDependencies).filter((name) => name.startsWith('@ast-grep/lang-')).length") \
  || fail "cannot count the @ast-grep/lang-* peers in packages/tool-astgrep/package.json"
cli_grammars=$(node -p "Object.keys(require('${repository}/packages/cli/package.json').dependencies).filter((name) => name.startsWith('@ast-grep/lang-')).length") \
  || fail "cannot count the @ast-grep/lang-* dependencies of packages/cli/package.json"
ruby_grammar=$(node -p "require('${repository}/packages/tool-astgrep/package.json').devDependencies['@ast-grep/lang-ruby']") \
  || fail "cannot read the @ast-grep/lang-ruby version from packages/tool-astgrep/package.json"
cli_total=$(( $(tr ',' '\n' <<<"$builtin_grammars" | wc -l) + cli_grammars ))
installable_alone=$(( packaged_grammars - $(tr ',' '\n' <<<"$engine_copies" | wc -l) ))

scratch=$(mktemp -d "${TMPDIR:-/tmp}/runbound-install-size-XXXXXX")
# Removed however the script ends, a failed check included.
trap 'rm -rf "$scratch"' EXIT
new_project() {
  mkdir -p "$1" && (cd "$1" && npm init -y >/dev/null && npm pkg set type=module) || fail "npm init failed in $1"
}
install_into() {
  local project=$1
  shift
  (cd "$project" && npm install --no-audit --no-fund --loglevel=error "$@" >/dev/null) || fail "npm install $* failed in ${project}"
  if ! (cd "$project" && npm ls --all >/dev/null 2>&1); then
    (cd "$project" && npm ls --all 2>&1 | grep -E "invalid|missing|extraneous|ERR") >&2
    fail "npm ls --all reports problems in ${project} (above)"
  fi
}
size_of() { du -sm "$1/node_modules" | cut -f1; }

# Prints one JSON line: the grammars this parser offers, those it lists as installable, and what a
# Python search is answered with.
probe='
import { createAstGrepParser } from "@runbound/tool-astgrep";
const parser = createAstGrepParser();
const table = parser.languages();
let python;
try { python = parser.language("python")?.id; } catch (error) { python = error.message; }
let engine;
try { (await import("@runbound/astgrep-engine")).loadAstGrepEngine(); engine = "native"; } catch (error) { engine = error.message; }
console.log(JSON.stringify({ available: [...table.available.keys()], installable: table.installable.map((entry) => entry.id), python, engine }));
'
grammars_in() {
  local project=$1
  printf '%s' "$probe" > "$project/probe.mjs"
  (cd "$project" && node probe.mjs) || fail "the grammar probe failed in ${project}"
}
expect_json() {
  node -e 'const seen = JSON.parse(process.argv[1]); if (!(new Function("seen", `return ${process.argv[2]}`))(seen)) { console.error(`expected ${process.argv[2]}, got ${process.argv[1]}`); process.exit(1); }' "$1" "$2" \
    || fail "$3"
}

alone="$scratch/tool-astgrep-alone"
new_project "$alone"
install_into "$alone" "${astgrep[0]}" "${toolkit[0]}" "${engine[0]}" "${engine_binary[0]}" "${runtime[0]}" valibot
alone_mb=$(size_of "$alone")
seen=$(grammars_in "$alone")
expect_json "$seen" "seen.available.join() === '${builtin_grammars}' && seen.installable.length === ${installable_alone} && seen.python.includes('npm install @ast-grep/lang-python') && seen.engine === 'native'" \
  "tool-astgrep alone should offer the built-in grammars (${builtin_grammars}), list the other ${installable_alone} packaged ones as installable, name @ast-grep/lang-python for a Python search and load its native engine"
engine_mb=$(du -sm -c "$alone/node_modules/@runbound/astgrep-engine" "$alone/node_modules/@runbound/astgrep-engine-linux-x64-gnu" | tail -1 | cut -f1)
echo "install-size: tool-astgrep + tool-kit + valibot + the native engine: ${alone_mb} MB, of which the engine ${engine_mb} MB ($(ls "$alone/node_modules/@ast-grep" | tr '\n' ' '))"

with_python="$scratch/tool-astgrep-python"
new_project "$with_python"
install_into "$with_python" "${astgrep[0]}" "${toolkit[0]}" "${engine[0]}" "${engine_binary[0]}" "${runtime[0]}" valibot "@ast-grep/lang-python@${python_grammar}"
python_mb=$(size_of "$with_python")
seen=$(grammars_in "$with_python")
expect_json "$seen" 'seen.python === "python" && seen.installable.includes("go") && !seen.installable.includes("python")' \
  "@ast-grep/lang-python installed next to tool-astgrep should be found"
echo "install-size: the same + @ast-grep/lang-python: ${python_mb} MB"

# A host that installed only the grammar and links tool-astgrep from elsewhere (npm link, a global
# install, a monorepo): tool-astgrep's own directory has no lang-python, the host's entry script does.
host="$scratch/host-with-linked-tool-astgrep"
new_project "$host"
install_into "$host" "@ast-grep/lang-python@${python_grammar}"
mkdir -p "$host/node_modules/@runbound"
ln -s "$alone/node_modules/@runbound/tool-astgrep" "$host/node_modules/@runbound/tool-astgrep"
seen=$(grammars_in "$host")
expect_json "$seen" 'seen.python === "python"' \
  "a grammar installed in the host project should be found from its entry script when tool-astgrep is linked from elsewhere"
echo "install-size: a linked tool-astgrep finds the host's @ast-grep/lang-python from the entry script"

cli="$scratch/runbound-cli"
new_project "$cli"
install_into "$cli" "${tarballs[@]}" valibot
cli_mb=$(size_of "$cli")
status=$(cd "$cli" && npx --no-install runbound status 2>&1) || fail "runbound status failed in ${cli}: ${status}"
grep -q "astgrep.parser: ${cli_total} grammars" <<<"$status" || fail "runbound status should list ${cli_total} grammars: ${status}"
grep -q "engine: native (@runbound/astgrep-engine)" <<<"$status" || fail "runbound status should name the native engine: ${status}"
grep -q "built into the native engine (their @ast-grep/lang-\* packages without it): ${engine_copies//,/, }" <<<"$status" \
  || fail "runbound status should name the native engine's copies (${engine_copies}) as where those grammars come from: ${status}"
echo "install-size: runbound CLI (every package): ${cli_mb} MB; runbound status lists ${cli_total} grammars"

# C++ and Bash, which the CLI no longer installs as packages, are searched with the engine's copies.
printf 'int main() {\n  values.push_back(add(1, 2));\n}\n' > "$cli/main.cpp"
printf 'set -eu\nmake all\n' > "$cli/build.sh"
found=$(cd "$cli" && npx --no-install runbound call ast_grep '{"pattern":"$V.push_back($X)","path":"main.cpp"}' 2>&1)
grep -q "main.cpp:2" <<<"$found" || fail "a C++ search in the CLI install should find the call: ${found}"
found=$(cd "$cli" && npx --no-install runbound call ast_grep '{"pattern":"make $T","path":"build.sh"}' 2>&1)
grep -q "build.sh:2" <<<"$found" || fail "a Bash search in the CLI install should find the command: ${found}"
echo "install-size: C++ and Bash are searched in the CLI install with the native engine's grammars"
# PHP, which the CLI does not install as a package, is the engine's php_only grammar, the ast-grep
# CLI's: a file without `<?php` is code (@ast-grep/lang-php would read it as text and find nothing).
printf '$total = 123 + add(1, 2);\n' > "$cli/total.php"
found=$(cd "$cli" && npx --no-install runbound call ast_grep '{"pattern":"123","path":"total.php"}' 2>&1)
grep -q "total.php:1" <<<"$found" || fail "a PHP search in the CLI install should find 123 in a file without <?php: ${found}"
echo "install-size: PHP without <?php is searched in the CLI install as the ast-grep CLI reads it"

# A grammar the CLI does not bring, installed next to it as its README says, is found.
printf 'class Greeter\n  def hello = puts("hi")\nend\n' > "$cli/greeter.rb"
refused=$(cd "$cli" && npx --no-install runbound call ast_grep '{"pattern":"puts($A)","path":"greeter.rb"}' 2>&1)
grep -q "npm install @ast-grep/lang-ruby" <<<"$refused" || fail "a Ruby search without its grammar should name the package to install: ${refused}"
install_into "$cli" "@ast-grep/lang-ruby@${ruby_grammar}"
found=$(cd "$cli" && npx --no-install runbound call ast_grep '{"pattern":"puts($A)","path":"greeter.rb"}' 2>&1) \
  || fail "a Ruby search after installing @ast-grep/lang-ruby failed: ${found}"
grep -q "greeter.rb:2" <<<"$found" || fail "a Ruby search after installing @ast-grep/lang-ruby should find the call: ${found}"
echo "install-size: @ast-grep/lang-ruby installed next to the CLI is found"

printf '{"toolAstgrepAloneMB":%s,"engineMB":%s,"withLangPythonMB":%s,"runboundCliMB":%s}\n' "$alone_mb" "$engine_mb" "$python_mb" "$cli_mb"
