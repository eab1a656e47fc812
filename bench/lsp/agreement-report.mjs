// The figures of the agreement benchmark, per language and overall, each next to the issue's goal.
import { percentile } from "./percentile.mjs";
import { sumScores } from "./agreement-score.mjs";

const fraction = (value) => (Number.isNaN(value) ? "—" : value.toFixed(3));
const ms = (value) => (Number.isNaN(value) ? "—" : value.toFixed(0));
const verdict = (met) => (met === undefined ? "—" : met ? "met" : "NOT met");

/** The figures of a set of steps (one language's, or all of them). */
export function figuresOf(steps) {
  const writes = steps.flatMap((step) =>
    [step.forward, step.revert].map((write) => ({ ...write, large: step.mutation.large })),
  );
  const times = writes.map((write) => write.ms);
  return {
    mutations: steps.length,
    writes: writes.length,
    ...sumScores(writes.map((write) => write.score)),
    // Answers (writes), not lines: one answer can name several files it did not check.
    notCheckedYet: writes.filter((write) => write.notCheckedYet.length > 0).length,
    notChecked: writes.filter((write) => write.notChecked.length > 0 || write.couldNotCheck.length > 0).length,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    largeP50: percentile(
      writes.filter((write) => write.large).map((write) => write.ms),
      0.5,
    ),
    largeWrites: writes.filter((write) => write.large).length,
  };
}

/** The goals of issue 21 §7 for `figures`; `loaded` raises the latency bound. */
export function goalsOf(figures, loaded) {
  return {
    recall: Number.isNaN(figures.recall) ? undefined : figures.recall >= 0.95,
    precision: Number.isNaN(figures.precision) ? undefined : figures.precision >= 0.98,
    resolvedRecall: Number.isNaN(figures.resolvedRecall) ? undefined : figures.resolvedRecall >= 0.95,
    notCheckedYet: figures.notCheckedYet === 0,
    p95: figures.p95 <= (loaded ? 3000 : 2000),
    largeP50: figures.largeWrites === 0 ? undefined : figures.largeP50 <= 600,
  };
}

/** Print the table; returns the figures and goals per row. */
export function report(byLanguage, { loaded, log }) {
  const rows = Object.entries(byLanguage).map(([language, result]) => [language, figuresOf(result.steps)]);
  rows.push(["all", figuresOf(Object.values(byLanguage).flatMap((result) => result.steps))]);
  log(
    `\n| | recall (goal ≥ 0.95) | precision (≥ 0.98) | resolved-recall (≥ 0.95) | answers with "not checked yet" (0) / other "not checked" | write p50 / p95 ms (p95 ≤ ${loaded ? "3,000 loaded" : "2,000 idle"}) | 5,000+-line file p50 ms (≤ 600) | rows new per checker (no goal) |`,
  );
  log("|---|---|---|---|---|---|---|---|");
  const out = {};
  for (const [language, figures] of rows) {
    const goals = goalsOf(figures, loaded);
    out[language] = { figures, goals };
    log(
      `| ${language} | ${fraction(figures.recall)} (${figures.found}/${figures.truth}) ${verdict(goals.recall)} | ${fraction(figures.precision)} (${figures.confirmed}/${figures.named}) ${verdict(goals.precision)} | ` +
        `${fraction(figures.resolvedRecall)} (${figures.resolved}/${figures.removed}) ${verdict(goals.resolvedRecall)} | ${figures.notCheckedYet} ${verdict(goals.notCheckedYet)} / ${figures.notChecked} of ${figures.writes} | ` +
        `${ms(figures.p50)} / ${ms(figures.p95)} ${verdict(goals.p95)} | ${figures.largeWrites === 0 ? "—" : `${ms(figures.largeP50)} (${figures.largeWrites} writes) ${verdict(goals.largeP50)}`} | ` +
        `${fraction(figures.precisionAsNew)} (${figures.confirmedAsNew}/${figures.named})${figures.unverifiable > 0 ? `; ${figures.unverifiable} rows unverifiable` : ""} |`,
    );
  }
  return out;
}

/** A few missed and unconfirmed pairs per language, for reading why. */
export function examples(byLanguage, log, count = 4) {
  for (const [language, result] of Object.entries(byLanguage)) {
    const missed = result.steps.flatMap((step) =>
      step.forward.score.missed.map((item) => ({ id: step.mutation.id, ...item })),
    );
    const unconfirmed = result.steps.flatMap((step) =>
      [...step.forward.score.unconfirmed, ...step.revert.score.unconfirmed].map((item) => ({
        id: step.mutation.id,
        ...item,
      })),
    );
    const resolvedMissed = result.steps.flatMap((step) =>
      step.revert.score.resolvedMissed.map((item) => ({ id: step.mutation.id, ...item })),
    );
    log(
      `\n${language}: ${missed.length} missed, ${unconfirmed.length} named but not reported by the checker, ${resolvedMissed.length} files with unreported resolutions`,
    );
    for (const item of missed.slice(0, count)) log(`  missed ${item.id}: ${item.file}:${item.line}: ${item.message}`);
    for (const item of unconfirmed.slice(0, count))
      log(`  unconfirmed ${item.id}: ${item.file}:${item.line}: ${item.severity} ${item.code}: ${item.message}`);
    for (const item of resolvedMissed.slice(0, count))
      log(`  resolution not reported ${item.id}: ${item.file} (${item.reported} of ${item.removed})`);
  }
}
