// Agreement with ast-grep's own rule tests: every (language, rule, source, should-match) case of the
// ast-grep-config crate (see rule-cases.mjs), run through our ast_grep's `rule` input and through
// `ast-grep scan --inline-rules`, scored against the test's expectation. agreement.mjs runs it after
// the pattern suite, on the same run and scratch folder.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "@runbound/tool-kit";
import { languages } from "./agreement-cases.mjs";
import { asRuleFile, extractRuleCases } from "./rule-cases.mjs";

const firstLine = (text) => text.trim().split("\n")[0]?.slice(0, 300) ?? "";
/** The CLI's reason: its error line and the innermost "Caused by" line (`╰▻ Rule must specify …`). */
const cliReason = (text) => {
  const causes = text.split("\n").filter((line) => line.includes("╰▻"));
  const cause = causes[causes.length - 1]?.replace(/^\s*╰▻\s*/, "");
  return `${firstLine(text)}${cause === undefined ? "" : `: ${cause.slice(0, 200)}`}`;
};

/** match | none | refused (with the reason), by our ast_grep's `rule` input, the rule's text as the test wrote it. */
async function ours(run, file, ruleCase) {
  const result = await run.call("ast_grep", {
    rule: ruleCase.rule.text,
    path: file,
    language: languages[ruleCase.language].id,
    max_results: 1,
  });
  if (result.isError) return { outcome: "refused", reason: firstLine(resultText(result)) };
  return { outcome: result.structured.total > 0 ? "match" : "none", count: result.structured.total };
}

/** The same by `ast-grep scan --inline-rules` (the rule as a whole rule file). */
function theirs(cli, workdir, file, ruleCase) {
  const result = spawnSync(
    cli,
    ["scan", "--inline-rules", asRuleFile(ruleCase.rule, ruleCase.language), "--json=compact", file],
    { cwd: workdir, encoding: "utf8" },
  );
  // Exit 1 is a finding of severity error; anything else but 0 is a refusal.
  if (result.status !== 0 && result.status !== 1)
    return { outcome: "refused", reason: cliReason(result.stderr) || `exit ${result.status}` };
  try {
    const found = JSON.parse(result.stdout);
    return { outcome: found.length > 0 ? "match" : "none", count: found.length };
  } catch {
    return { outcome: "refused", reason: firstLine(result.stderr) || "no JSON" };
  }
}

function agrees(ruleCase, answer) {
  return ruleCase.shouldMatch ? answer.outcome === "match" : answer.outcome !== "match";
}

function classify(ruleCase, answer) {
  if (answer.outcome === "refused") return "refused";
  return ruleCase.shouldMatch ? "no match" : "matched where the test expects none";
}

/**
 * Extract the rule cases of the ast-grep-config crate at `crateDirectory` and run each through
 * `run` (ast_grep attached to `workdir`) and the CLI at `cli`; `language` keeps one language id.
 */
export async function runRuleAgreement({ run, workdir, cli, crateDirectory, language }) {
  const extracted = extractRuleCases(crateDirectory);
  const cases = extracted.cases.filter(
    (ruleCase) => language === undefined || languages[ruleCase.language].id === language,
  );
  const perLanguage = {};
  const disagreements = [];
  const behindTheCli = [];
  const countsDiffer = [];
  for (const [index, ruleCase] of cases.entries()) {
    const { id, extension } = languages[ruleCase.language];
    const file = `rule-case-${index}.${extension}`;
    writeFileSync(join(workdir, file), ruleCase.source);
    const answers = { ours: await ours(run, file, ruleCase), cli: theirs(cli, workdir, file, ruleCase) };
    const tally = (perLanguage[id] ??= { cases: 0, ours: 0, cli: 0 });
    tally.cases++;
    for (const side of ["ours", "cli"]) {
      if (agrees(ruleCase, answers[side])) tally[side]++;
      else
        disagreements.push({
          side,
          language: id,
          class: classify(ruleCase, answers[side]),
          origin: ruleCase.origin,
          rule: ruleCase.rule.text,
          source: ruleCase.source,
          shouldMatch: ruleCase.shouldMatch,
          reason: answers[side].reason,
        });
    }
    if (agrees(ruleCase, answers.cli) && !agrees(ruleCase, answers.ours)) behindTheCli.push(ruleCase.origin);
    // A find_all test also names how many it finds: not part of the score, shown where a side differs.
    if (
      ruleCase.expectedCount !== undefined &&
      (answers.ours.count !== ruleCase.expectedCount || answers.cli.count !== ruleCase.expectedCount)
    )
      countsDiffer.push(
        `${ruleCase.origin}: expected ${ruleCase.expectedCount}, ast_grep ${answers.ours.count ?? "—"}, CLI ${answers.cli.count ?? "—"}`,
      );
  }
  const leftOutByReason = {};
  for (const entry of extracted.leftOut) (leftOutByReason[entry.reason] ??= []).push(entry.origin);
  return {
    cases: cases.length,
    leftOut: extracted.leftOut.length,
    leftOutByReason,
    testsWithoutRuleCheck: extracted.noRuleCheck.length,
    commentedOut: extracted.commentedOut,
    ignored: extracted.ignored,
    perLanguage,
    behindTheCli,
    countsDiffer,
    disagreements,
  };
}

const flat = (text, length) => {
  const line = text.trim().replace(/\n\s*/g, "⏎");
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
};

/** Print what runRuleAgreement found: the table, what was left out and why, every disagreement by reason. */
export function printRuleAgreement(results, { version, cache }) {
  const percent = (part, whole) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)} %`);
  const cell = (part, whole) => `${part} (${percent(part, whole)})`;
  console.log(
    `\n## Rules: ast-grep-config ${version} rule-test cases: ${results.cases} (crate cached in ${cache}; left out: ${results.leftOut} checks not built from literals, ${results.commentedOut} commented out, ${results.ignored} in #[ignore] tests; ${results.testsWithoutRuleCheck} tests check no rule against a source)\n`,
  );
  console.log("| language | cases | ast_grep agrees | ast-grep CLI agrees |\n|---|---|---|---|");
  const total = { cases: 0, ours: 0, cli: 0 };
  for (const [id, tally] of Object.entries(results.perLanguage).sort(([first], [second]) =>
    first.localeCompare(second),
  )) {
    console.log(`| ${id} | ${tally.cases} | ${cell(tally.ours, tally.cases)} | ${cell(tally.cli, tally.cases)} |`);
    for (const key of Object.keys(total)) total[key] += tally[key];
  }
  // Every rule case is in a language both sides have (Tsx), so "languages both have" is the total.
  console.log(
    `| all (languages both have) | ${total.cases} | ${cell(total.ours, total.cases)} | ${cell(total.cli, total.cases)} |`,
  );
  console.log(
    `\nRule cases the CLI gets right and ast_grep does not: ${results.behindTheCli.length}${results.behindTheCli.length > 0 ? ` (${results.behindTheCli.join(", ")})` : ""}.`,
  );
  if (results.countsDiffer.length > 0)
    console.log(`find_all counts that differ from the test's (not scored): ${results.countsDiffer.join("; ")}.`);
  console.log("\nRule checks left out, by reason:");
  for (const [reason, origins] of Object.entries(results.leftOutByReason).sort(
    ([, first], [, second]) => second.length - first.length,
  ))
    console.log(
      `- ${origins.length} × ${reason}: ${[...new Set(origins.map((origin) => origin.replace(/:\d+$/, "")))].join(", ")}`,
    );
  const byClass = new Map();
  for (const entry of results.disagreements) {
    const name = `${{ ours: "ast_grep", cli: "ast-grep CLI" }[entry.side]} — ${entry.class}`;
    byClass.set(name, [...(byClass.get(name) ?? []), entry]);
  }
  for (const [name, entries] of [...byClass].sort(([first], [second]) => first.localeCompare(second))) {
    console.log(`\n### Rules: ${name} (${entries.length})`);
    for (const entry of entries)
      console.log(
        `- ${entry.language} ${entry.origin}: rule \`${flat(entry.rule, 160)}\` ${entry.shouldMatch ? "should match" : "should not match"} \`${flat(entry.source, 80)}\`${entry.reason === undefined ? "" : ` — ${entry.reason}`}`,
      );
  }
}
