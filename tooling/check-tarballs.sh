#!/usr/bin/env bash
# Check the packed packages as their users get them: no test files in a tarball and a LICENSE in each;
# then install every tarball into a new project outside the repository (as `npm install` from the
# registry would), require a clean `npm ls --all`, and run the CLI from what was installed; then install
# @runbound/tool-files alone (with tool-kit, runner-adapter, valibot, and runtime-kit, the dependency
# they share, which a registry install would fetch by itself) into another and write and read a file
# through createRun.
# Usage: bash tooling/check-tarballs.sh <directory of packed .tgz files>
set -uo pipefail
if [ "$#" -ne 1 ]; then echo "usage: bash tooling/check-tarballs.sh <directory of .tgz files>" >&2; exit 2; fi
packs=$(cd "$1" && pwd)
fail() { echo "tarballs: $*" >&2; exit 1; }

shopt -s nullglob
tarballs=("$packs"/*.tgz)
[ "${#tarballs[@]}" -gt 0 ] || fail "no .tgz files in ${packs}; pack them with npm run pack:local -- ${packs}"
for tarball in "${tarballs[@]}"; do
  listing=$(tar -tzf "$tarball")
  shipped_tests=$(grep -E '(^|/)(__fixtures__|test-support)/|\.test\.(ts|js|d\.ts)$' <<<"$listing")
  [ -z "$shipped_tests" ] || fail "$(basename "$tarball") ships test files: $(head -3 <<<"$shipped_tests" | tr '\n' ' ')— exclude them in its package.json \"files\""
  grep -qx 'package/LICENSE' <<<"$listing" || fail "$(basename "$tarball") has no LICENSE; add LICENSE to its package.json \"files\""
done
echo "tarballs: ${#tarballs[@]} packages, no test files, a LICENSE in each"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/runbound-consumer-XXXXXX")
cd "$scratch" || fail "cannot enter ${scratch}"
npm init -y >/dev/null && npm pkg set type=module || fail "npm init failed in ${scratch}"
npm install --no-audit --no-fund "${tarballs[@]}" valibot || fail "npm install of the tarballs failed in ${scratch}"
if ! npm ls --all >/dev/null 2>&1; then
  npm ls --all 2>&1 | grep -E "invalid|missing|extraneous|ERR" >&2
  fail "npm ls --all reports problems in ${scratch} (above)"
fi
echo "tarballs: installed into ${scratch}; npm ls --all is clean"

npx --no-install runbound --version || fail "runbound --version failed from the installed tarballs"
printf 'hello from a tarball\n' > hello.txt
read_output=$(npx --no-install runbound call read '{"path":"hello.txt"}') || fail "runbound call read failed: ${read_output}"
grep -q "hello from a tarball" <<<"$read_output" || fail "runbound call read did not print the file: ${read_output}"
tools=$(npx --no-install runbound tools --format json) || fail "runbound tools failed"
for tool in read write ast_grep lsp; do
  node -e 'const tools = JSON.parse(process.argv[1]); process.exit(tools.some((tool) => tool.name === process.argv[2]) ? 0 : 1)' "$tools" "$tool" \
    || fail "runbound tools (from the tarballs) does not list \`${tool}\`"
done
echo "tarballs: the CLI runs from the installed tarballs"

# A host that wants only the file tools installs @runbound/tool-files with its peers and the host
# package, not the CLI: nothing else may be needed to write and read a file through createRun.
# runtime-kit is their own dependency: given as a tarball only because it is not on the registry yet.
host_tarballs=()
for name in tool-files tool-kit runner-adapter runtime-kit; do
  found=("$packs"/runbound-"$name"-*.tgz)
  [ "${#found[@]}" -eq 1 ] || fail "expected one runbound-${name}-*.tgz in ${packs}"
  host_tarballs+=("${found[0]}")
done
host=$(mktemp -d "${TMPDIR:-/tmp}/runbound-files-host-XXXXXX")
cd "$host" || fail "cannot enter ${host}"
npm init -y >/dev/null && npm pkg set type=module || fail "npm init failed in ${host}"
npm install --no-audit --no-fund "${host_tarballs[@]}" valibot >/dev/null || fail "npm install of tool-files, tool-kit, runner-adapter and runtime-kit failed in ${host}"
if ! npm ls --all >/dev/null 2>&1; then
  npm ls --all 2>&1 | grep -E "invalid|missing|extraneous|ERR" >&2
  fail "npm ls --all reports problems in ${host} (above)"
fi
cat > host.mjs <<'HOST'
import { createRun } from "@runbound/runner-adapter";
import { resultText, Workdir } from "@runbound/tool-kit";
import fileTools from "@runbound/tool-files";

const run = createRun({ plugins: [fileTools] });
await run.attach(Workdir, { value: process.cwd() });
console.log(resultText(await run.call("write", { path: "notes/hello.txt", content: "hello from tool-files\n" })));
console.log(resultText(await run.call("read", { path: "notes/hello.txt" })));
await run.close();
HOST
host_output=$(node host.mjs) || fail "a host with only tool-files could not write and read a file: ${host_output}"
grep -q "hello from tool-files" <<<"$host_output" || fail "a host with only tool-files did not read back what it wrote: ${host_output}"
echo "tarballs: tool-files installed alone (with tool-kit, runner-adapter, runtime-kit, valibot) writes and reads a file"
