#!/usr/bin/env node
// Each package installs alone, as its README says, and its README's example runs.
//
// For every publishable package (packages/*, not private) this reads two things from its README.md:
//   - the install line: the one `npm install …` line of the first ```sh block under "Install";
//   - the example: the first ```ts, ```js or ```sh block under "Usage".
// It then makes a new project outside the repository, runs that install line exactly (only each
// runbound package name is replaced by its packed tarball, since none is on the registry yet), with
// the project's `overrides` standing in for the registry for every other runbound package (so a
// dependency the line does not name comes from its tarball as it would from the registry, and a peer
// it omits is still missing), requires a clean `npm ls --all`, and runs the example there. A failure
// names the package and the step.
//
// TypeScript examples are run as plain ES modules (`node usage.mjs`): Node 20 has no
// --experimental-strip-types, and a README example that is valid JavaScript and TypeScript at once
// runs as a user copies it on any supported Node, with no loader. They are then type-checked as
// TypeScript against the installed packages' types, so they stay valid TypeScript too.
// A `-g` install line is run as a local install of the same packages (a global install ignores the
// project's overrides, and must not touch the machine's prefix); the example then finds its
// programs in the project's node_modules/.bin.
//
// Usage: node tooling/check-package-installs.mjs <directory of .tgz files from npm run pack:local> [name…]
// (names, e.g. @runbound/tool-lsp, check only those packages: for working on one README)
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const repository = resolve(import.meta.dirname, "..");
const concurrency = 2; // each install is network- and disk-bound; more only contends
const exampleTimeoutMs = 90_000; // "runs and exits quickly": generous for a cold first kernel start

if (process.argv.length < 3) {
  console.error("usage: node tooling/check-package-installs.mjs <directory of .tgz files> [package name…]");
  process.exit(2);
}
const packs = resolve(process.argv[2]);
const only = process.argv.slice(3);

const packages = readdirSync(join(repository, "packages"))
  .map((name) => join(repository, "packages", name))
  .filter((directory) => existsSync(join(directory, "package.json")))
  .map((directory) => ({ directory, manifest: JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) }))
  .filter(({ manifest }) => manifest.private !== true);

// `npm pack` names @scope/name@1.2.3 as scope-name-1.2.3.tgz.
const tarballOf = new Map(
  packages.map(({ manifest }) => [
    manifest.name,
    join(packs, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`),
  ]),
);
for (const [name, tarball] of tarballOf) {
  if (!existsSync(tarball)) fail(name, `no tarball ${tarball}; pack with npm run pack:local -- ${packs}`);
}

/** The fenced blocks after the first heading matching `title`, up to the next heading as high or higher. */
function blocksUnder(markdown, title) {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^#{1,6} ${title}\\b`).test(line));
  if (start === -1) return undefined;
  const level = lines[start].match(/^#+/)[0].length;
  const blocks = [];
  for (let index = start + 1; index < lines.length; index++) {
    const heading = lines[index].match(/^(#+) /);
    if (heading && heading[1].length <= level) break;
    const fence = lines[index].match(/^```(\w*)\s*$/);
    if (!fence) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    blocks.push({ language: fence[1], text: lines.slice(index + 1, end).join("\n") + "\n" });
    index = end;
  }
  return blocks;
}

function readReadme({ directory, manifest }) {
  const readme = readFileSync(join(directory, "README.md"), "utf8");
  const shell = blocksUnder(readme, "Install")?.find((block) => block.language === "sh");
  if (!shell) throw new Error("README has no ```sh block under an Install heading");
  const installs = shell.text.split("\n").filter((line) => /^\s*npm (install|i)\b/.test(line));
  if (installs.length !== 1)
    throw new Error(`README's Install block has ${installs.length} npm install lines; it needs exactly one`);
  const line = installs[0].replace(/#.*$/, "").trim();
  if (/["'`$\\|;&<>]/.test(line))
    throw new Error(`the install line \`${line}\` is more than words; keep it one plain npm install`);
  const example = blocksUnder(readme, "Usage")?.find((block) => ["ts", "js", "sh"].includes(block.language));
  if (!example) throw new Error("README has no ```ts, ```js or ```sh block under a Usage heading");
  return { name: manifest.name, line, example };
}

/** Runs a command and answers its output, or throws an error carrying the tail of that output. */
async function step(what, file, args, options) {
  try {
    const { stdout, stderr } = await run(file, args, { maxBuffer: 64 * 1024 * 1024, ...options });
    return stdout + stderr;
  } catch (error) {
    const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim().split("\n").slice(-25).join("\n");
    const ending = error.killed ? `killed after ${options.timeout / 1000} s` : `exit ${error.code ?? error.signal}`;
    throw new Error(`${what} failed (${ending}):\n${output || error.message}`, { cause: error });
  }
}

async function check({ name, line, example }) {
  const scratch = mkdtempSync(join(tmpdir(), `runbound-install-${name.replace(/^@runbound\//, "")}-`));
  const words = line.split(/\s+/);
  const global = words.includes("-g") || words.includes("--global");
  // Faster and quieter installs through npm's own settings, so the command stays the README's words.
  const env = {
    ...process.env,
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  if (global) env.PATH = `${join(scratch, "node_modules", ".bin")}:${env.PATH}`;
  const options = { cwd: scratch, env };
  const started = Date.now();
  await step("npm init", "npm", ["init", "-y"], options);
  await step("npm pkg set type=module", "npm", ["pkg", "set", "type=module"], options);
  // The registry's part for the runbound packages the line does not name (npm refuses an override of
  // a package the install names itself).
  const overrides = Object.fromEntries(
    [...tarballOf]
      .filter(([packageName]) => !words.includes(packageName))
      .map(([packageName, tarball]) => [packageName, `file:${tarball}`]),
  );
  const manifest = JSON.parse(readFileSync(join(scratch, "package.json"), "utf8"));
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ ...manifest, overrides }, null, 2));
  const args = words
    .slice(1)
    .filter((word) => word !== "-g" && word !== "--global")
    .map((word) => tarballOf.get(word) ?? word);
  await step(`\`${line}\``, "npm", args, { ...options, timeout: 600_000 });
  await step("npm ls --all", "npm", ["ls", "--all"], options);
  const installed = Date.now() - started;

  const exampleStarted = Date.now();
  if (example.language === "sh") {
    writeFileSync(join(scratch, "usage.sh"), example.text);
    await step("the Usage example (usage.sh)", "bash", ["-eo", "pipefail", "usage.sh"], {
      ...options,
      timeout: exampleTimeoutMs,
    });
  } else {
    writeFileSync(join(scratch, "usage.mjs"), example.text);
    const output = await step("the Usage example (node usage.mjs)", process.execPath, ["usage.mjs"], {
      ...options,
      timeout: exampleTimeoutMs,
    });
    // A tool's error result does not fail the program, but an example that gets one shows a wrong
    // call: resultText writes such a result as "Error (<code>): …".
    const refused = output.split("\n").find((outputLine) => outputLine.startsWith("Error ("));
    if (refused) throw new Error(`the Usage example got an error result from a tool:\n${refused}`);
    if (example.language === "ts") await typeCheck(scratch, example.text, options);
  }
  rmSync(scratch, { recursive: true, force: true }); // kept on failure, for a look at what broke
  return `installed (${seconds(installed)}), example ran (${seconds(Date.now() - exampleStarted)})`;
}

// The repository's own TypeScript and Node types, so the scratch project needs nothing added.
async function typeCheck(scratch, text, options) {
  writeFileSync(join(scratch, "usage.ts"), text);
  const tsc = join(repository, "node_modules", "typescript", "bin", "tsc");
  const settings = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--target", "es2022"];
  const types = ["--typeRoots", join(repository, "node_modules", "@types"), "--types", "node"];
  await step(
    "type-checking the Usage example as TypeScript (usage.ts)",
    process.execPath,
    [tsc, ...settings, ...types, "usage.ts"],
    options,
  );
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function fail(name, why) {
  console.error(`installs: ${name}: ${why}`);
  process.exit(1);
}

const queue = packages
  .filter(({ manifest }) => only.length === 0 || only.includes(manifest.name))
  .map((entry) => {
    try {
      return readReadme(entry);
    } catch (error) {
      fail(entry.manifest.name, error.message);
    }
  });
const total = queue.length;
const failures = [];
async function worker() {
  for (let next = queue.shift(); next; next = queue.shift()) {
    try {
      console.log(`installs: ${next.name}: ${await check(next)}`);
    } catch (error) {
      failures.push(next.name);
      console.error(`installs: ${next.name}: ${error.message}`);
    }
  }
}
const started = Date.now();
await Promise.all(Array.from({ length: concurrency }, worker));
if (failures.length > 0) fail(failures.join(", "), `${failures.length} of ${total} packages failed (above)`);
console.log(
  `installs: all ${total} packages install from their README's line and run its example (${seconds(Date.now() - started)})`,
);
