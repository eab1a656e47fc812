// Every measurement for one language server: cold first answers, then one warm server per side for
// the overhead and the diagnostics after write, with the servers' memory sampled along the way.
import { readGroupResidentMemoryKiB } from "@runbound/runtime-kit";
import { measureColdStart } from "./cold-start.mjs";
import { measureDiagnosticsAfterWrite } from "./diagnostics-after-write.mjs";
import { prepare } from "./queries.mjs";
import { openRawSide, openToolSide, rawLaunch } from "./sides.mjs";
import { measureOverhead } from "./warm-overhead.mjs";

const mib = (kib) => (kib === undefined ? "?" : `${(kib / 1024).toFixed(0)} MiB`);

/** Measure `server` (an entry of servers.mjs). @returns the figures, as report.mjs prints them. */
export async function measureServer({
  repo,
  server,
  fixtureCommit,
  observer,
  calls,
  warmup,
  coldRounds,
  edits,
  neutralEdits,
  log,
}) {
  const toolFixture = server.createFixture(repo, "tool", fixtureCommit);
  const rawFixture = server.createFixture(repo, "raw", fixtureCommit);
  const memory = [];
  const sampleMemory = async (label, toolPid, rawPid) => {
    const sample = {
      label,
      toolKiB: await readGroupResidentMemoryKiB(toolPid),
      rawKiB: await readGroupResidentMemoryKiB(rawPid),
    };
    memory.push(sample);
    log(`  memory ${label}: tool's server group ${mib(sample.toolKiB)}, raw's ${mib(sample.rawKiB)}`);
  };
  try {
    const toolQueries = server.queries.map((query) => prepare(query, toolFixture.workdir));
    const rawQueries = server.queries.map((query) => prepare(query, rawFixture.workdir));
    const launch = await rawLaunch(repo, rawFixture, rawQueries[0].file);
    const loading = launch.spec.projectLoading;
    const figures = { ...server.describe(repo, fixtureCommit), memory };

    log(`\n[${server.id}] 1. cold first answer: ${coldRounds} rounds (+1 discarded), fresh server each`);
    figures.cold = await measureColdStart({
      rounds: coldRounds,
      toolFixture,
      toolQuery: toolQueries[0],
      launch,
      rawQuery: rawQueries[0],
      loading,
      log,
    });

    log(`\n[${server.id}] 2. warm servers, one per side`);
    const tool = await openToolSide(toolFixture, { observer });
    const raw = await openRawSide(launch);
    try {
      await tool.call("lsp", toolQueries[0].toolInput);
      const rawUri = raw.sync(rawQueries[0].path, rawQueries[0].text, launch.languageId);
      if (loading !== undefined) await raw.waitProjectLoaded(loading.beginsWithinMs, loading.budgetMs);
      await sampleMemory("after start", tool.serverPid(), raw.pid);
      log(`  overhead: ${warmup} warm-up rounds, then ${calls} interleaved pairs per op`);
      figures.overhead = await measureOverhead({
        tool,
        raw,
        rawUri,
        rawWorkdir: rawFixture.workdir,
        toolQueries,
        rawQueries,
        calls,
        warmup,
      });
      for (const mismatch of figures.overhead.mismatches) log(`  ANSWERS DIFFER — ${mismatch}`);
      await sampleMemory("after the overhead calls", tool.serverPid(), raw.pid);

      log(
        `\n[${server.id}] 3. diagnostics after write: ${edits} breaking + ${edits} fixing + ${neutralEdits} neutral edits per side`,
      );
      figures.diagnostics = await measureDiagnosticsAfterWrite({
        tool,
        raw,
        file: toolQueries[0].file,
        rawPath: rawQueries[0].path,
        rawUri,
        original: toolQueries[0].text,
        languageId: launch.languageId,
        edit: server.edit,
        observer,
        edits,
        neutralEdits,
        log,
      });
      await sampleMemory("after the edits", tool.serverPid(), raw.pid);
    } finally {
      await tool.close();
      await raw.stop();
    }
    return figures;
  } finally {
    toolFixture.remove();
    rawFixture.remove();
  }
}
