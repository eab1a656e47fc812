#!/usr/bin/env node
// After `changeset version`: point the tool template's runbound ranges at the new versions.
//
// examples/tool-template is not a workspace (it is copied out of the repository and installed like a
// third party's plugin), so changesets does not see its package.json, nor docs/writing-a-tool.md,
// which shows that package.json in full. Left alone, both keep `"runbound": "^0.1.0"` against a 0.2.0
// release, and a plugin started from them cannot install next to it. This rewrites every
// `"<runbound package>": "^x.y.z"` in the two files to `^<its version in packages/*/package.json>`,
// as text, so the files keep their layout. Run by the root package.json's "version" script.
//
// Usage: node tooling/sync-template-ranges.mjs [--check]
//   --check changes nothing: it lists the ranges that differ and exits 1 if any does.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const repository = resolve(import.meta.dirname, "..");
const TEMPLATE_FILES = ["examples/tool-template/package.json", "docs/writing-a-tool.md"];

/** name → version of every publishable package in packages/*. */
function packageVersions() {
  const versions = new Map();
  for (const entry of readdirSync(join(repository, "packages"))) {
    const manifestPath = join(repository, "packages", entry, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (manifest.private !== true) versions.set(manifest.name, manifest.version);
  }
  return versions;
}

/** Every `"name": "^x.y.z"` of a runbound package in `text`, with the range it should have. */
function rangesIn(text, versions) {
  const found = [];
  for (const match of text.matchAll(/"((?:@runbound\/)?[a-z0-9-]+)"(\s*:\s*)"\^(\d+\.\d+\.\d+)"/g)) {
    const version = versions.get(match[1]);
    if (version)
      found.push({ text: match[0], name: match[1], range: `^${match[3]}`, wanted: `^${version}`, separator: match[2] });
  }
  return found;
}

const check = process.argv.includes("--check");
const versions = packageVersions();
let stale = 0;
for (const file of TEMPLATE_FILES) {
  const path = join(repository, file);
  let text = readFileSync(path, "utf8");
  for (const range of rangesIn(text, versions)) {
    if (range.range === range.wanted) continue;
    stale++;
    console.log(`${file}: ${range.name} ${range.range} → ${range.wanted}`);
    // The first stale occurrence: a pair written twice (peer and dev) is met twice in this loop.
    text = text.replace(range.text, `"${range.name}"${range.separator}"${range.wanted}"`);
  }
  if (!check) writeFileSync(path, text);
}
if (check && stale > 0) process.exit(1);
