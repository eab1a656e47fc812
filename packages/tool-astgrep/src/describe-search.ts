import { describeReading } from "./pattern-compiler.js";
import type { SearchOutcome } from "./structural-search.js";

/** "1 file", "3 files". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "scanned 37 dart files; skipped 2 over the size limit, 1 binary" */
export function describeScan(outcome: SearchOutcome, maxFileBytes: number): string {
  const parts = Object.entries(outcome.scanned).map(([language, count]) => `${count} ${language}`);
  const scannedTotal = Object.values(outcome.scanned).reduce((sum, count) => sum + count, 0);
  let text = parts.length === 0 ? "scanned 0 files" : `scanned ${parts.join(", ")} ${scannedTotal === 1 ? "file" : "files"}`;
  const { too_large: tooLarge, binary, not_utf8: notUtf8, unreadable } = outcome.skipped;
  const skipped = [
    tooLarge > 0 ? `${tooLarge} over ${Math.round(maxFileBytes / 1024)} KiB` : "",
    binary > 0 ? `${binary} binary` : "",
    notUtf8 > 0 ? `${notUtf8} not UTF-8` : "",
    unreadable > 0 ? `${unreadable} unreadable` : "",
  ].filter((part) => part.length > 0);
  if (skipped.length > 0) text += `; skipped ${skipped.join(", ")}`;
  for (const entry of outcome.notParsed) text += `; not searched: ${plural(entry.files, `${entry.language} file`)} (the pattern does not parse as ${entry.language})`;
  return text;
}

/** How the pattern was read in each language searched. */
export function describeReadings(outcome: SearchOutcome): string {
  return outcome.compiled.map((compiled) => `Pattern ${describeReading(compiled)}.`).join("\n");
}

/** The explanation given instead of a bare "no matches". */
export function explainNoMatches(outcome: SearchOutcome, maxFileBytes: number): string {
  const lines = [`0 matches (${describeScan(outcome, maxFileBytes)}).`, describeReadings(outcome)];
  const hints = new Set(outcome.compiled.flatMap((compiled) => compiled.hints));
  for (const hint of hints) lines.push(`Hint: ${hint}`);
  const skippedCount = Object.values(outcome.skipped).reduce((sum, count) => sum + count, 0);
  if (Object.values(outcome.scanned).every((count) => count === 0)) {
    lines.push(
      skippedCount > 0
        ? `Every file of the pattern's language under this path was skipped (binary, not UTF-8, unreadable or over ${Math.round(maxFileBytes / 1024)} KiB, as counted above), so nothing was searched.`
        : "No file of the pattern's language is under this path; check `path` and `language`.",
    );
  } else {
    lines.push("The pattern parsed, so nothing under the path has that structure. Loosen it with metavariables ($A, $$$ARGS) or check the reading above.");
  }
  return lines.filter((line) => line.length > 0).join("\n");
}
