// Agreement between one write's answer and the checker. A checker finding and an answer row match
// when they name the same file and the same 1-based line; each row matches at most one finding and
// the other way round (so two errors on one line need two rows). Messages and codes are not compared:
// the server and the command-line checker word some messages differently, and the place is what a
// model acts on. Lines never move: every mutation replaces text within one line. For Go, rows in a
// package the checker could not check (a dependency does not compile, or more than ten errors) are
// neither confirmed nor refuted: they are counted apart from precision.
import { dirname } from "node:path";

const place = (item) => `${item.file}:${item.line}`;

/** How many of `wanted` find a partner in `offered`, one-to-one by file and line; and which did not. */
function matchByPlace(wanted, offered) {
  const left = new Map();
  for (const item of offered) left.set(place(item), (left.get(place(item)) ?? 0) + 1);
  const unmatched = [];
  let matched = 0;
  for (const item of wanted) {
    const count = left.get(place(item)) ?? 0;
    if (count > 0) {
      left.set(place(item), count - 1);
      matched += 1;
    } else unmatched.push(item);
  }
  return { matched, unmatched };
}

/**
 * Score one write. `introducedTruth`: the checker's findings that are new against the baseline after
 * this write; `afterTruth`: everything the checker reports after it; `removedTruth` (reverts only):
 * findings present before this write and gone after it.
 */
export function scoreWrite(answer, { introducedTruth, afterTruth, removedTruth = [], unverifiable = new Set() }) {
  const named = answer.introduced.filter((item) => item.severity === "error" || item.severity === "warning");
  const recall = matchByPlace(introducedTruth, named);
  // Files the answer names with a count but no rows (past the 10 shown in full): their findings are
  // reported by file and count, as the answer's bound allows, and counted apart from line matches.
  const byNameLeft = new Map([...(answer.namedOnly ?? new Map())].map(([file, counts]) => [file, counts.introduced]));
  let foundByName = 0;
  for (const item of recall.unmatched) {
    const left = byNameLeft.get(item.file) ?? 0;
    if (left <= 0) continue;
    byNameLeft.set(item.file, left - 1);
    foundByName += 1;
  }
  const checked = matchByPlace(named, afterTruth);
  // Rows in directories the checker could not check are left out of precision, and counted apart.
  const outside = checked.unmatched.filter((item) => unverifiable.has(dirname(item.file)));
  const precision = {
    matched: checked.matched,
    unmatched: checked.unmatched.filter((item) => !outside.includes(item)),
  };
  // Stricter: rows the checker shows as new since the baseline (a pre-existing error, or one a
  // previous write caused, reported as introduced by this write is confirmed above but not here).
  const asNew = matchByPlace(named, introducedTruth).matched;
  // Resolved: per file, the answer's resolved count against the checker's removed count, capped by it.
  const removedByFile = new Map();
  for (const item of removedTruth) removedByFile.set(item.file, (removedByFile.get(item.file) ?? 0) + 1);
  let resolvedMatched = 0;
  const resolvedMissed = [];
  for (const [file, count] of removedByFile) {
    const reported = Math.min(count, answer.resolved.get(file) ?? 0);
    resolvedMatched += reported;
    if (reported < count)
      resolvedMissed.push({
        file,
        removed: count,
        reported: answer.resolved.get(file) ?? 0,
        examples: removedTruth.filter((item) => item.file === file).slice(0, 2),
      });
  }
  return {
    truth: introducedTruth.length,
    found: recall.matched + foundByName,
    foundByLine: recall.matched,
    foundByName,
    missed: recall.unmatched.filter((item) => !(answer.namedOnly ?? new Map()).has(item.file)),
    named: named.length - outside.length,
    confirmed: precision.matched,
    unverifiable: outside.length,
    confirmedAsNew: asNew,
    unconfirmed: precision.unmatched,
    removed: removedTruth.length,
    resolved: resolvedMatched,
    resolvedMissed,
  };
}

/** Sum write scores into a language's (or the overall) figures. */
export function sumScores(scores) {
  const total = {
    truth: 0,
    found: 0,
    foundByLine: 0,
    foundByName: 0,
    named: 0,
    confirmed: 0,
    confirmedAsNew: 0,
    unverifiable: 0,
    removed: 0,
    resolved: 0,
  };
  for (const score of scores) for (const key of Object.keys(total)) total[key] += score[key];
  return {
    ...total,
    recall: total.truth === 0 ? Number.NaN : total.found / total.truth,
    recallByLine: total.truth === 0 ? Number.NaN : total.foundByLine / total.truth,
    precision: total.named === 0 ? Number.NaN : total.confirmed / total.named,
    precisionAsNew: total.named === 0 ? Number.NaN : total.confirmedAsNew / total.named,
    resolvedRecall: total.removed === 0 ? Number.NaN : total.resolved / total.removed,
  };
}
