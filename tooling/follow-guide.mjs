#!/usr/bin/env node
// Follow docs/writing-a-tool.md literally, outside the repository, so the guide cannot rot:
// - every block marked `<!-- file: PATH -->` must be examples/tool-template/PATH byte for byte, and
//   every file of the template must be shown;
// - the blocks marked `<!-- step -->` run in order, as one shell script, in a new temporary directory
//   holding `runbound` (this checkout) and `runbound-packs` (the packed tarballs), as the guide's
//   first commands leave them;
// - the lines of the block marked `<!-- expect -->` must appear, in order, in what the steps print;
// - the plugin's package.json is unchanged afterwards (no `file:` ranges written into it).
//
// Usage: node tooling/follow-guide.mjs <directory of packed .tgz files>
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repository = resolve(fileURLToPath(new URL("..", import.meta.url)));
const guidePath = join(repository, "docs", "writing-a-tool.md");
const templateDirectory = join(repository, "examples", "tool-template");
const packsArgument = process.argv[2];
if (packsArgument === undefined) {
  console.error("usage: node tooling/follow-guide.mjs <directory of packed .tgz files>");
  process.exit(2);
}
const packs = resolve(packsArgument);

/** The guide's marked blocks: `{ marker, argument, body, line }` in document order. */
function markedBlocks(markdown) {
  const blocks = [];
  const pattern = /^<!-- (file|step|expect)(?:: (\S+))? -->\n```[^\n]*\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(pattern)) {
    blocks.push({
      marker: match[1],
      argument: match[2],
      body: match[3],
      line: markdown.slice(0, match.index).split("\n").length,
    });
  }
  return blocks;
}

function templateFiles(directory) {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(templateDirectory, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith("node_modules") && !path.startsWith("dist"))
    .sort();
}

const failures = [];
const blocks = markedBlocks(readFileSync(guidePath, "utf8"));

const shown = new Set();
for (const block of blocks.filter((candidate) => candidate.marker === "file")) {
  shown.add(block.argument);
  let actual;
  try {
    actual = readFileSync(join(templateDirectory, block.argument), "utf8");
  } catch {
    failures.push(
      `docs/writing-a-tool.md:${block.line} shows \`${block.argument}\`, which examples/tool-template does not have.`,
    );
    continue;
  }
  if (actual !== block.body)
    failures.push(
      `docs/writing-a-tool.md:${block.line} shows \`${block.argument}\` differently from examples/tool-template/${block.argument}; make them the same.`,
    );
}
for (const path of templateFiles(templateDirectory)) {
  if (!shown.has(path))
    failures.push(
      `examples/tool-template/${path} is not shown in docs/writing-a-tool.md; add it under a \`<!-- file: ${path} -->\` marker.`,
    );
}

const steps = blocks.filter((block) => block.marker === "step").map((block) => block.body);
const expected = blocks
  .filter((block) => block.marker === "expect")
  .flatMap((block) => block.body.split("\n").filter(Boolean));
if (steps.length === 0) failures.push("docs/writing-a-tool.md has no `<!-- step -->` blocks to follow.");

if (failures.length === 0) {
  const scratch = mkdtempSync(join(tmpdir(), "runbound-guide-"));
  symlinkSync(repository, join(scratch, "runbound"));
  symlinkSync(packs, join(scratch, "runbound-packs"));
  console.log(`guide: following docs/writing-a-tool.md in ${scratch}`);
  const script = ["set -euo pipefail", "set -x", ...steps].join("\n");
  const { status, stdout } = spawnSync("bash", ["-c", script], {
    cwd: scratch,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" },
  });
  process.stdout.write(stdout);
  if (status !== 0) failures.push(`The guide's steps failed (exit ${status}); the output above shows the command.`);
  let from = 0;
  for (const line of expected) {
    const at = stdout.indexOf(line, from);
    if (at === -1) {
      failures.push(
        `The steps did not print \`${line}\` (after what came before it), as the guide's expected output says.`,
      );
      break;
    }
    from = at + line.length;
  }
  const manifestAfter = readFileSync(join(scratch, "tool-wordcount", "package.json"), "utf8");
  if (manifestAfter !== readFileSync(join(templateDirectory, "package.json"), "utf8")) {
    failures.push("Following the guide changed the plugin's package.json (a `file:` range would break its users).");
  }
}

for (const failure of failures) console.error(`guide: ${failure}`);
console.log(failures.length === 0 ? "guide: followed, every step worked" : `guide: ${failures.length} problem(s)`);
process.exit(failures.length === 0 ? 0 : 1);
