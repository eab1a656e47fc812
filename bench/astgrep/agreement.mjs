// Agreement with ast-grep's own unit tests: every (language, pattern, source, should-match) case of
// the ast-grep-core and ast-grep-language crates (the calls its `cargo test` runs: none commented out
// or in an `#[ignore]` test), run through our ast_grep and through the ast-grep CLI, scored against
// the test's expectation per language; then the rule tests of ast-grep-config (rule-agreement.mjs). Usage:
//   node bench/astgrep/agreement.mjs [--version 0.51.1] [--json results/astgrep-agreement.json] [--language go]
//     [--crate-grammars] [--grammar id=libraryPath[:languageSymbol[:expandoChar]] …]
// `--grammar` hands a grammar library to the parser as a host can (`createAstGrepParser({ languages })`),
// e.g. the prebuilt library of a tree-sitter npm package for a language no `@ast-grep/lang-*` covers.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createRun } from "@runbound/runner-adapter";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "@runbound/tool-astgrep";
import { resultText, Workdir } from "@runbound/tool-kit";
import { extractCases, languages } from "./agreement-cases.mjs";
import { crateGrammars } from "./crate-grammars.mjs";
import { crateCache as cache, fetchCrate } from "./crates.mjs";
import { printRuleAgreement, runRuleAgreement } from "./rule-agreement.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..", "..");
const cli = join(repository, "node_modules", ".bin", "ast-grep");
const { values: options } = parseArgs({
  options: {
    // The crates released with @ast-grep/napi 0.51.2 and @ast-grep/cli 0.51.1 (napi 0.51.2 had no crate release).
    version: { type: "string", default: "0.51.1" },
    json: { type: "string" },
    language: { type: "string" },
    grammar: { type: "string", multiple: true },
    // Build HCL, Nix, Solidity and Zig from the tree-sitter crates ast-grep-language locks (needs `cc`):
    // for a run without the native engine, which has them built in.
    "crate-grammars": { type: "boolean", default: false },
  },
});
const crates = ["ast-grep-core", "ast-grep-language"];

/** The parser's settings: the default, or every packaged grammar plus (or instead of) the ones handed in. */
async function parserSettings(grammars, built) {
  if (grammars.length === 0 && built.length === 0) return {};
  const { packagedGrammars } = await import(join(repository, "packages", "tool-astgrep", "dist", "grammar-catalog.js"));
  const handedIn = grammars.map((entry) => {
    const parts = /^([a-z_]+)=([^:]+)(?::(\w+))?(?::(.))?$/u.exec(entry);
    if (parts === null) throw new Error(`\`--grammar ${entry}\` is not id=libraryPath[:languageSymbol[:expandoChar]].`);
    const [, id, libraryPath, languageSymbol, expandoChar] = parts;
    const extension = Object.values(languages).find((language) => language.id === id)?.extension ?? id;
    return {
      id,
      grammar: {
        libraryPath,
        extensions: [extension],
        languageSymbol: languageSymbol ?? `tree_sitter_${id}`,
        ...(expandoChar === undefined ? {} : { expandoChar }),
      },
    };
  });
  const choices = [...built.filter((choice) => !handedIn.some((given) => given.id === choice.id)), ...handedIn];
  const ids = new Set(choices.map((choice) => choice.id));
  return { languages: [...packagedGrammars.map((grammar) => grammar.id).filter((id) => !ids.has(id)), ...choices] };
}

/** match | none | refused (with the reason), by our ast_grep through the parser resource as a host calls it. */
async function ours(run, file, benchCase) {
  const result = await run.call("ast_grep", {
    pattern: benchCase.pattern,
    path: file,
    language: languages[benchCase.language].id,
    max_results: 1,
  });
  if (result.isError) return { outcome: "refused", reason: resultText(result).split("\n")[0].slice(0, 300) };
  return {
    outcome: result.structured.total > 0 ? "match" : "none",
    tolerant: /parsed with errors/.test(resultText(result)),
  };
}

/** The same by the ast-grep CLI. */
function theirs(workdir, file, benchCase) {
  const result = spawnSync(
    cli,
    ["run", `--pattern=${benchCase.pattern}`, "-l", languages[benchCase.language].cli, "--json=compact", file],
    { cwd: workdir, encoding: "utf8" },
  );
  if (result.status !== 0 && result.status !== 1)
    return {
      outcome: "refused",
      reason: result.stderr.trim().split("\n")[0]?.slice(0, 300) ?? `exit ${result.status}`,
    };
  try {
    return { outcome: JSON.parse(result.stdout).length > 0 ? "match" : "none" };
  } catch {
    return { outcome: "refused", reason: result.stderr.trim().split("\n")[0]?.slice(0, 300) ?? "no JSON" };
  }
}

/** A refusal because the language has no grammar here (not installed, or built into the engine that is not loaded). */
const notAvailable = /is not available|not installed|no grammar|built into the native engine/i;

function agrees(benchCase, answer) {
  return benchCase.shouldMatch ? answer.outcome === "match" : answer.outcome !== "match";
}

/** A disagreement's class, from what went wrong. */
function classify(benchCase, answer) {
  if (answer.outcome === "refused") {
    if (/lone metavariable/.test(answer.reason)) return "refused by design: a lone metavariable";
    if (notAvailable.test(answer.reason)) return "language not available";
    if (/against itself|refused the reading/.test(answer.reason)) return "the pattern's self-check failed";
    if (/does not parse/.test(answer.reason)) return "refused: no clean reading";
    return "refused: other";
  }
  if (benchCase.shouldMatch) return answer.tolerant ? "no match (tolerant reading)" : "no match";
  return "matched where the test expects none";
}

const crateDirectories = crates.map((name) => fetchCrate(name, options.version));
const configDirectory = fetchCrate("ast-grep-config", options.version);
const extracted = extractCases(crateDirectories);
const cases = extracted.cases.filter(
  (benchCase) => options.language === undefined || languages[benchCase.language].id === options.language,
);
const workdir = mkdtempSync(join(tmpdir(), "astgrep-agreement-"));
const run = createRun({ plugins: [astGrepPlugin] });
await run.attach(AstGrepParser, {
  value: createAstGrepParser(
    await parserSettings(options.grammar ?? [], options["crate-grammars"] ? crateGrammars(crateDirectories[1]) : []),
  ),
});
await run.attach(Workdir, { value: workdir });

const perLanguage = new Map();
const disagreements = [];
/** Cases the CLI answers as the test expects and we do not, in a language both have: the goal is none. */
const behindTheCli = [];
let rules;
try {
  for (const [index, benchCase] of cases.entries()) {
    const file = `case-${index}.${languages[benchCase.language].extension}`;
    writeFileSync(join(workdir, file), benchCase.source);
    const shipped = await ours(run, file, benchCase);
    const answers = { ours: shipped, cli: theirs(workdir, file, benchCase) };
    const id = languages[benchCase.language].id;
    const tally = perLanguage.get(id) ?? { cases: 0, ours: 0, cli: 0, available: true, loneMetavariable: 0 };
    tally.cases++;
    if (answers.ours.outcome === "refused" && notAvailable.test(answers.ours.reason)) tally.available = false;
    if (answers.ours.outcome === "refused" && /lone metavariable/.test(answers.ours.reason)) tally.loneMetavariable++;
    for (const side of ["ours", "cli"]) {
      if (agrees(benchCase, answers[side])) tally[side]++;
      else
        disagreements.push({
          side,
          language: id,
          class: classify(benchCase, answers[side]),
          origin: benchCase.origin,
          pattern: benchCase.pattern,
          source: benchCase.source,
          shouldMatch: benchCase.shouldMatch,
          reason: answers[side].reason,
        });
    }
    perLanguage.set(id, tally);
    if (tally.available && agrees(benchCase, answers.cli) && !agrees(benchCase, answers.ours))
      behindTheCli.push(`${id} \`${benchCase.pattern.replace(/\n/g, "⏎")}\``);
  }
  rules = await runRuleAgreement({ run, workdir, cli, crateDirectory: configDirectory, language: options.language });
} finally {
  await run.close();
  rmSync(workdir, { recursive: true, force: true });
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;
const cell = (part, whole) => `${part} (${percent(part, whole)})`;
const { commentedOut, ignored } = extracted.leftOut;
console.log(
  `ast-grep ${options.version} unit-test cases: ${cases.length} (crates cached in ${cache}; left out: ${commentedOut} helper calls commented out, ${ignored} in #[ignore] tests)\n`,
);
console.log("| language | cases | ast_grep agrees | ast-grep CLI agrees |\n|---|---|---|---|");
const sum = (tallies) =>
  tallies.reduce(
    (total, tally) => ({
      cases: total.cases + tally.cases,
      ours: total.ours + tally.ours,
      cli: total.cli + tally.cli,
      loneMetavariable: total.loneMetavariable + tally.loneMetavariable,
    }),
    { cases: 0, ours: 0, cli: 0, loneMetavariable: 0 },
  );
const sorted = [...perLanguage].sort(([first], [second]) => first.localeCompare(second));
for (const [id, tally] of sorted) {
  console.log(
    `| ${id}${tally.available ? "" : " (no grammar here)"} | ${tally.cases} | ${cell(tally.ours, tally.cases)} | ${cell(tally.cli, tally.cases)} |`,
  );
}
const all = sum(sorted.map(([, tally]) => tally));
const shared = sum(sorted.filter(([, tally]) => tally.available).map(([, tally]) => tally));
console.log(`| all | ${all.cases} | ${cell(all.ours, all.cases)} | ${cell(all.cli, all.cases)} |`);
console.log(
  `| languages both have | ${shared.cases} | ${cell(shared.ours, shared.cases)} | ${cell(shared.cli, shared.cases)} |`,
);
// A lone `$A` matches every node; refusing it is a documented decision, so it is also counted apart.
const decided = shared.cases - shared.loneMetavariable;
console.log(
  `| languages both have, lone \`$A\` cases left out | ${decided} | ${cell(shared.ours, decided)} | ${cell(shared.cli - shared.loneMetavariable, decided)} |`,
);
const languagesAgreeing = (side) => sorted.filter(([, tally]) => tally.available && tally[side] === tally.cases).length;
const availableLanguages = sorted.filter(([, tally]) => tally.available).length;
console.log(
  `\nLanguages both have where every case agrees: ast_grep ${languagesAgreeing("ours")}, ast-grep CLI ${languagesAgreeing("cli")} of ${availableLanguages}.`,
);
console.log(
  `Cases the CLI gets right and ast_grep does not: ${behindTheCli.length}${behindTheCli.length > 0 ? ` (${behindTheCli.join(", ")})` : ""}.`,
);
const byClass = new Map();
for (const entry of disagreements) {
  const name = `${{ ours: "ast_grep", cli: "ast-grep CLI" }[entry.side]} — ${entry.class}`;
  byClass.set(name, [...(byClass.get(name) ?? []), entry]);
}
for (const [name, entries] of [...byClass].sort(([first], [second]) => first.localeCompare(second))) {
  console.log(`\n### ${name} (${entries.length})`);
  for (const entry of entries) {
    console.log(
      `- ${entry.language} ${entry.origin}: \`${entry.pattern.replace(/\n/g, "⏎")}\` ${entry.shouldMatch ? "should match" : "should not match"} \`${entry.source.replace(/\n/g, "⏎").slice(0, 80)}\`${entry.reason === undefined ? "" : ` — ${entry.reason}`}`,
    );
  }
}
printRuleAgreement(rules, { version: options.version, cache });
if (options.json !== undefined) {
  mkdirSync(dirname(options.json), { recursive: true });
  writeFileSync(
    options.json,
    `${JSON.stringify({ version: options.version, leftOut: extracted.leftOut, perLanguage: Object.fromEntries(perLanguage), behindTheCli, disagreements, rules }, null, 2)}\n`,
  );
}
