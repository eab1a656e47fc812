// One language's measurement: a fresh copy of its project, the checker's baseline, then per scripted
// mutation: warm the mutated file as a model would (one `lsp` `diagnostics` call on it, never on its
// callers), the `edit` that mutates it (timed, its answer parsed), the checker, the `edit` that
// reverts it (timed, where "resolved" is measured), the checker again.
import { parseAnswer } from "./agreement-answer.mjs";
import { CHECKER_COMMANDS, runChecker, subtractFindings } from "./agreement-checkers.mjs";
import { planMutations } from "./agreement-mutations.mjs";
import { waitForNoLeftovers } from "./agreement-processes.mjs";
import { copyProject } from "./agreement-projects.mjs";
import { scoreWrite } from "./agreement-score.mjs";
import { openSession } from "./agreement-session.mjs";

const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;

const timed = async (work) => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

/** A write's record: its time, what its answer said (counts and the text), and its score. */
function writeRecord(call, truth) {
  const answer = parseAnswer(call.text);
  return {
    ms: call.ms,
    answered: answer.present,
    notCheckedYet: answer.notCheckedYet,
    notChecked: answer.notChecked,
    couldNotCheck: answer.couldNotCheck,
    unknownLines: answer.other,
    score: scoreWrite(answer, truth),
    text: call.text,
  };
}

export async function measureLanguage({ bin, language, limit, log, ignorePids = [] }) {
  const project = copyProject(language);
  log(`\n## ${language}: ${project.label} — ${project.files.length} files; cache ${project.source}`);
  try {
    const baseline = await timed(() => runChecker(language, project.workdir, bin));
    log(
      `checker: ${CHECKER_COMMANDS[language]} — baseline ${baseline.value.findings.length} findings in ${(baseline.ms / 1000).toFixed(1)} s (excluded from every comparison)`,
    );
    if (language === "go" && baseline.value.findings.length > 0)
      throw new Error(
        `go build + go vet must pass cleanly before mutating, but report: ${baseline.value.findings
          .slice(0, 3)
          .map((finding) => `${finding.file}:${finding.line}: ${finding.message}`)
          .join("; ")}`,
      );
    const plan = planMutations(language, project.workdir, project.files, limit);
    const session = await openSession(project.workdir);
    const steps = [];
    const checkerMs = [baseline.ms];
    let memory = {};
    try {
      let before = baseline.value.findings;
      for (const mutation of plan) {
        const warm = await session.call("lsp", { op: "diagnostics", file: mutation.file });
        const forward = await session.call("edit", {
          path: mutation.file,
          old_string: mutation.old_string,
          new_string: mutation.new_string,
        });
        if (forward.isError) throw new Error(`${mutation.id}: the edit failed: ${forward.text}`);
        const after = await timed(() => runChecker(language, project.workdir, bin));
        const back = await session.call("edit", {
          path: mutation.file,
          old_string: mutation.new_string,
          new_string: mutation.old_string,
        });
        if (back.isError) throw new Error(`${mutation.id}: the revert failed: ${back.text}`);
        const reverted = await timed(() => runChecker(language, project.workdir, bin));
        checkerMs.push(after.ms, reverted.ms);
        const step = {
          mutation: {
            id: mutation.id,
            kind: mutation.kind,
            file: mutation.file,
            line: mutation.line,
            what: mutation.what,
            control: mutation.control,
            large: mutation.large,
          },
          warmMs: warm.ms,
          forward: writeRecord(forward, {
            introducedTruth: subtractFindings(after.value.findings, baseline.value.findings),
            afterTruth: after.value.findings,
            unverifiable: after.value.unverifiable,
          }),
          revert: writeRecord(back, {
            introducedTruth: subtractFindings(reverted.value.findings, baseline.value.findings),
            afterTruth: reverted.value.findings,
            unverifiable: reverted.value.unverifiable,
            removedTruth: subtractFindings(after.value.findings, reverted.value.findings),
          }),
          leftOverAfterRevert: subtractFindings(reverted.value.findings, before).length,
        };
        before = reverted.value.findings;
        steps.push(step);
        const f = step.forward.score;
        const r = step.revert.score;
        log(
          `${mutation.id}: ${mutation.what}\n  edit ${forward.ms.toFixed(0)} ms: checker +${f.truth}, answer named ${f.found}/${f.truth} (rows ${f.named}, ${f.confirmed} confirmed${f.unverifiable > 0 ? `, ${f.unverifiable} unverifiable` : ""})` +
            `${step.forward.notCheckedYet.length + step.forward.notChecked.length > 0 ? `, ${step.forward.notCheckedYet.length} "not checked yet", ${step.forward.notChecked.length} "not checked"` : ""}` +
            ` | revert ${back.ms.toFixed(0)} ms: checker −${r.removed}, answer resolved ${r.resolved}/${r.removed}${r.named > 0 ? `, ${r.named} rows named` : ""}${step.leftOverAfterRevert > 0 ? `; ${step.leftOverAfterRevert} findings did not go away` : ""}`,
        );
      }
    } finally {
      memory = session.memory();
      await session.close();
    }
    for (const [id, { peak, last }] of Object.entries(memory))
      log(`memory: ${id}'s process group ${mib(peak)} at its peak, ${mib(last)} after the last write`);
    const left = await waitForNoLeftovers({ pids: session.serverPids(), paths: [project.workdir], ignore: ignorePids });
    if (left.length > 0)
      log(`LEFT RUNNING after close: ${left.map((entry) => `${entry.pid} ${entry.command.slice(0, 80)}`).join("; ")}`);
    else
      log(
        `cleanup: no language server (pids ${session.serverPids().join(", ") || "none"}) or checker process left in /proc`,
      );
    return {
      project: {
        label: project.label,
        files: project.files.length,
        checker: CHECKER_COMMANDS[language],
        baselineFindings: baseline.value.findings.length,
      },
      steps,
      checkerMs,
      memoryKiB: memory,
      leftovers: left.map((entry) => ({ pid: entry.pid, command: entry.command })),
    };
  } finally {
    project.remove();
  }
}
