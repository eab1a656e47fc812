import { displayPath } from "@runbound/runtime-kit";
import { isEngineGrammar } from "./grammar-catalog.js";
import { describeReading } from "./pattern-compiler.js";
import { describeRule, ruleHints } from "./rule-compiler.js";
import type { SkippedEntry, SkipReason } from "./skip-ledger.js";
import type { SearchOutcome } from "./search-outcome.js";
import type { SyntaxErrorSite } from "./syntax-error-ledger.js";

/** "1 file", "3 files". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

const countLabels: Record<SkipReason, (count: number, maxFileBytes: number) => string> = {
  too_large: (count, maxFileBytes) => `${count} over ${Math.round(maxFileBytes / 1024)} KiB`,
  binary: (count) => `${count} binary`,
  not_utf8: (count) => `${count} not UTF-8`,
  unreadable: (count) => `${count} unreadable`,
  unreadable_directory: (count) => `${count} unreadable ${count === 1 ? "directory" : "directories"}`,
  not_regular: (count) => `${count} not a regular file (pipe, socket or device)`,
  symlink: (count) => `${plural(count, "symlink")} (not followed)`,
  outside_workdir: (count) =>
    `${count} outside the working directory (a directory on the path was swapped for a symlink)`,
};

/** "scanned 37 dart files; skipped 2 over the size limit, 1 binary" */
export function describeScan(outcome: SearchOutcome, maxFileBytes: number): string {
  const parts = Object.entries(outcome.scanned).map(([language, count]) => `${count} ${language}`);
  const scannedTotal = Object.values(outcome.scanned).reduce((sum, count) => sum + count, 0);
  let text =
    parts.length === 0 ? "scanned 0 files" : `scanned ${parts.join(", ")} ${scannedTotal === 1 ? "file" : "files"}`;
  const skipped = (Object.keys(countLabels) as SkipReason[])
    .filter((reason) => outcome.skipped[reason] > 0)
    .map((reason) => countLabels[reason](outcome.skipped[reason], maxFileBytes));
  if (skipped.length > 0) text += `; skipped ${skipped.join(", ")}`;
  for (const entry of outcome.notInstalled) {
    const why = entry.leftOut
      ? `the parser's \`languages\` setting leaves ${entry.language} out`
      : isEngineGrammar(entry.language)
        ? `the ${entry.language} grammar is built into the native engine, which is not loaded here`
        : `no ${entry.language} grammar here: npm install @ast-grep/lang-${entry.language}`;
    text += `; not searched: ${plural(entry.files, `${entry.language} file`)} (${why})`;
  }
  for (const entry of outcome.notParsed)
    text += `; not searched: ${plural(entry.files, `${entry.language} file`)} (the pattern does not parse as ${entry.language})`;
  return text;
}

const entryLabels: Record<SkipReason, string> = {
  too_large: "over the size limit",
  binary: "binary",
  not_utf8: "not UTF-8",
  unreadable: "unreadable file",
  unreadable_directory: "unreadable directory",
  not_regular: "not a regular file",
  symlink: "symlink, not followed",
  outside_workdir: "outside the working directory, not read",
};

/** How many skipped entries the text names; `structured` carries up to `SkipLedger.namedLimit`. */
const namedInText = 5;
const longestShownPath = 160;

/** One skipped entry as the answer shows it, e.g. `{ path: "vendor", reason: "unreadable directory: EACCES" }`. */
export function skippedEntryView(entry: SkippedEntry, workdir: string): { path: string; reason: string } {
  const path = displayPath(workdir, entry.path);
  return {
    path: path.length > longestShownPath ? `…${path.slice(-(longestShownPath - 1))}` : path,
    reason: `${entryLabels[entry.reason]}${entry.code === undefined ? "" : `: ${entry.code}`}`,
  };
}

/** "Skipped: `vendor` (unreadable directory: EACCES), `p.ts` (not a regular file) and 3 more." or "". */
export function describeSkippedEntries(outcome: SearchOutcome, workdir: string): string {
  const total = Object.values(outcome.skipped).reduce((sum, count) => sum + count, 0);
  if (total === 0) return "";
  const named = outcome.skippedEntries.slice(0, namedInText).map((entry) => {
    const view = skippedEntryView(entry, workdir);
    return `\`${view.path}\` (${view.reason})`;
  });
  return `Skipped: ${named.join(", ")}${total > named.length ? ` and ${total - named.length} more` : ""}.`;
}

/** How many files with syntax errors the text names; `structured` carries up to `SyntaxErrorLedger.namedLimit`. */
const syntaxErrorsInText = 5;

/** One file with a syntax error as the answer shows it: `src/x.ts:36 (ERROR near "out A")`, `a.py:4 (MISSING ")")`. */
export function syntaxErrorView(site: SyntaxErrorSite, workdir: string): string {
  const path = displayPath(workdir, site.path);
  const shown = path.length > longestShownPath ? `…${path.slice(-(longestShownPath - 1))}` : path;
  return `${shown}:${site.line + 1} (${site.kind === "ERROR" ? `ERROR near "${site.near}"` : `MISSING "${site.near}"`})`;
}

/**
 * "2 of the 40 files parsed have syntax errors: … Matches inside those regions may be missing." or ""
 * when every parsed file parsed cleanly.
 */
export function describeSyntaxErrors(outcome: SearchOutcome, workdir: string): string {
  const { files, parsed, named } = outcome.syntaxErrors;
  if (files === 0) return "";
  const shown = named.slice(0, syntaxErrorsInText).map((site) => syntaxErrorView(site, workdir));
  const more = files > shown.length ? ` and ${files - shown.length} more` : "";
  const which =
    files < parsed
      ? `${files} of the ${plural(parsed, "file")} parsed`
      : files === 1
        ? "The 1 file parsed"
        : `All ${files} files parsed`;
  return `${which} ${files === 1 ? "has" : "have"} syntax errors the grammar could not read: ${shown.join(", ")}${more}. Matches inside those regions may be missing.`;
}

/** How the pattern was read in each language searched. */
export function describeReadings(outcome: SearchOutcome): string {
  return outcome.compiled
    .map((compiled) =>
      compiled.rule === undefined ? `Pattern ${describeReading(compiled)}.` : `Rule ${describeRule(compiled)}.`,
    )
    .join("\n");
}

/** The explanation given instead of a bare "no matches". */
export function explainNoMatches(outcome: SearchOutcome, maxFileBytes: number, workdir: string): string {
  const lines = [
    `0 matches (${describeScan(outcome, maxFileBytes)}).`,
    describeSkippedEntries(outcome, workdir),
    describeSyntaxErrors(outcome, workdir),
    describeReadings(outcome),
  ];
  const hints = new Set(outcome.compiled.flatMap((compiled) => [...compiled.hints, ...ruleHints(compiled)]));
  for (const hint of hints) lines.push(`Hint: ${hint}`);
  const skippedCount = Object.values(outcome.skipped).reduce((sum, count) => sum + count, 0);
  if (Object.values(outcome.scanned).every((count) => count === 0)) {
    lines.push(
      skippedCount > 0
        ? "Every file of the pattern's language under this path was skipped (for the reasons counted above), so nothing was searched."
        : "No file of the pattern's language is under this path; check `path` and `language`.",
    );
  } else if (outcome.compiled.some((compiled) => compiled.rule !== undefined)) {
    lines.push(
      "The rule compiled, so nothing under the path matches it. Loosen a part of it (drop a relational or `not` part, widen a `regex`) or check how its patterns were read above.",
    );
  } else {
    lines.push(
      "The pattern parsed, so nothing under the path has that structure. Loosen it with metavariables ($A, $$$ARGS) or check the reading above.",
    );
  }
  return lines.filter((line) => line.length > 0).join("\n");
}
