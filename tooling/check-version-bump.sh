#!/usr/bin/env bash
# A release bumps the tool template with the packages: on a copy of this checkout (the files as they
# are now, committed or not), add a changeset that bumps every publishable package, run the root
# "version" script (changeset version, then tooling/sync-template-ranges.mjs), and require that every
# runbound range in examples/tool-template/package.json and in the package.json docs/writing-a-tool.md
# shows is `^` + the package's new version. changesets does not see the template (it is not a
# workspace), so without the sync both keep the old ranges and a plugin made from them cannot install
# next to the release. It also requires that a platform package (@runbound/astgrep-engine-<triple>)
# gets the new version of its engine, which pins it exactly.
# Usage: bash tooling/check-version-bump.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
repository=$(pwd)
fail() { echo "version-bump: $*" >&2; exit 1; }

copy=$(mktemp -d "${TMPDIR:-/tmp}/runbound-version-bump-XXXXXX")
trap 'rm -rf "$copy"' EXIT
# A clone for the history changesets reads (--shared: no object is copied), then the working tree's
# own files over it, so uncommitted changes are checked too. node_modules is the checkout's, linked.
git clone --quiet --shared "$repository" "$copy/repo" || fail "git clone failed"
git ls-files --cached --others --exclude-standard -z | xargs -0 -I{} sh -c '[ -e "$1" ] && printf "%s\0" "$1"' _ {} \
  | tar -c --null -T - -f - | tar -x -C "$copy/repo" -f - || fail "copying the working tree failed"
git ls-files --deleted -z | (cd "$copy/repo" && xargs -0 -r rm -f --)
ln -s "$repository/node_modules" "$copy/repo/node_modules"
cd "$copy/repo" || fail "cannot enter the copy"

# One changeset bumping every publishable package a minor, so the check has a bump to follow even
# when no changeset is pending (pending ones apply too, as in a real release). Platform packages are
# left out of it: only their engine'"'"'s bump (the fixed group) may carry them along.
before=$(node -e '
  const fs = require("node:fs");
  const names = [], versions = {};
  const manifests = fs.readdirSync("packages")
    .filter((entry) => fs.existsSync(`packages/${entry}/package.json`))
    .map((entry) => JSON.parse(fs.readFileSync(`packages/${entry}/package.json`, "utf8")))
    .filter((manifest) => manifest.private !== true);
  const platformPackages = new Set(
    manifests.flatMap((manifest) => Object.keys(manifest.optionalDependencies ?? {}).filter((name) => name.startsWith(`${manifest.name}-`))),
  );
  for (const manifest of manifests) {
    if (!platformPackages.has(manifest.name)) names.push(`"${manifest.name}": minor`);
    versions[manifest.name] = manifest.version;
  }
  fs.writeFileSync(".changeset/check-version-bump.md", `---\n${names.join("\n")}\n---\n\nA bump made by tooling/check-version-bump.sh.\n`);
  console.log(JSON.stringify(versions));
') || fail "writing the changeset failed"

npm run version --silent >version.log 2>&1 || { tail -20 version.log >&2; fail "npm run version failed in ${copy}/repo"; }

# Read the ranges as JSON, not with the sync's own pattern, so a pattern that misses a range fails here.
node -e '
  const fs = require("node:fs");
  const before = JSON.parse(process.argv[1]);
  const after = {};
  for (const name of Object.keys(before)) {
    const entry = fs.readdirSync("packages").find((dir) => fs.existsSync(`packages/${dir}/package.json`) && JSON.parse(fs.readFileSync(`packages/${dir}/package.json`, "utf8")).name === name);
    after[name] = JSON.parse(fs.readFileSync(`packages/${entry}/package.json`, "utf8")).version;
    // A platform package (checked below) is bumped only through its engine.
    const platformPackage = Object.keys(before).some((other) => name.startsWith(`${other}-`));
    if (after[name] === before[name] && !platformPackage) throw new Error(`${name} stayed at ${before[name]}: changeset version bumped nothing`);
  }
  const guide = fs.readFileSync("docs/writing-a-tool.md", "utf8").match(/<!-- file: package.json -->\n```json\n([\s\S]*?)\n```/);
  if (!guide) throw new Error("docs/writing-a-tool.md shows no <!-- file: package.json --> block");
  const manifests = { "examples/tool-template/package.json": fs.readFileSync("examples/tool-template/package.json", "utf8"), "the package.json in docs/writing-a-tool.md": guide[1] };
  const problems = [];
  let checked = 0;
  for (const [where, text] of Object.entries(manifests)) {
    const manifest = JSON.parse(text);
    for (const field of ["dependencies", "peerDependencies", "devDependencies", "optionalDependencies"]) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (!(name in after)) continue;
        checked++;
        if (range !== `^${after[name]}`) problems.push(`${where}: ${field} ${name} is ${range}, the release is ${after[name]}`);
      }
    }
  }
  if (checked === 0) problems.push("no runbound range found in the template or the guide");
  // A native package and its platform packages (@runbound/astgrep-engine and -linux-x64-gnu) release
  // together: one version (a changesets fixed group), pinned exactly in the optional dependency, so
  // npm installs the binary built with that release.
  let platformPins = 0;
  for (const entry of fs.readdirSync("packages")) {
    if (!fs.existsSync(`packages/${entry}/package.json`)) continue;
    const manifest = JSON.parse(fs.readFileSync(`packages/${entry}/package.json`, "utf8"));
    for (const [name, range] of Object.entries(manifest.optionalDependencies ?? {})) {
      if (!name.startsWith(`${manifest.name}-`) || !(name in after)) continue;
      platformPins++;
      if (after[name] !== manifest.version) problems.push(`${name} is ${after[name]} after changeset version and ${manifest.name} ${manifest.version}; they belong in one "fixed" group in .changeset/config.json`);
      if (range !== manifest.version) problems.push(`${manifest.name} pins its optional dependency ${name} as ${range}, not its own version ${manifest.version}`);
    }
  }
  if (platformPins === 0) problems.push("no platform package found among the optional dependencies of @runbound/astgrep-engine");
  for (const problem of problems) console.error(`version-bump: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`version-bump: after changeset version, ${checked} runbound ranges in the template and the guide follow the new versions (e.g. runbound ${before.runbound} → ${after.runbound}), and ${platformPins} platform package(s) have the version of their engine`);
' "$before" || fail "after changeset version the versions are not what a release needs (above): the root \"version\" script runs tooling/sync-template-ranges.mjs for the template, and .changeset/config.json must put each engine and its platform packages in one \"fixed\" group"
