// Overhead of the tool over the raw client on warm servers: the same query, interleaved call by call
// (the side that goes first alternates), so load changes on the machine hit both sides alike.
import { rawRequest, sameAnswer } from "./queries.mjs";

const elapsed = async (work) => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

/**
 * Warm both sides with `warmup` calls of every query, then time `calls` pairs of every query.
 * @returns per op the tool and raw times and their per-pair differences (ms), and any answer mismatch.
 */
export async function measureOverhead({ tool, raw, rawUri, rawWorkdir, toolQueries, rawQueries, calls, warmup }) {
  const mismatches = [];
  for (let round = 0; round < warmup; round++) {
    for (const [index, query] of toolQueries.entries()) {
      const toolText = await tool.call("lsp", query.toolInput);
      const rawAnswer = await rawRequest(rawQueries[index], raw, rawUri);
      const reason = round === warmup - 1 ? sameAnswer(query, toolText, rawAnswer, rawWorkdir) : undefined;
      if (reason !== undefined) mismatches.push(`${query.op}: ${reason}`);
    }
  }
  const byOp = Object.fromEntries(toolQueries.map((query) => [query.op, { tool: [], raw: [], difference: [] }]));
  for (let pair = 0; pair < calls; pair++) {
    for (const [index, query] of toolQueries.entries()) {
      const timeTool = () => elapsed(() => tool.call("lsp", query.toolInput));
      const timeRaw = () => elapsed(() => rawRequest(rawQueries[index], raw, rawUri));
      const toolFirst = (pair + index) % 2 === 0;
      const first = await (toolFirst ? timeTool() : timeRaw());
      const second = await (toolFirst ? timeRaw() : timeTool());
      const [toolTime, rawTime] = toolFirst ? [first, second] : [second, first];
      const series = byOp[query.op];
      series.tool.push(toolTime.ms);
      series.raw.push(rawTime.ms);
      series.difference.push(toolTime.ms - rawTime.ms);
    }
  }
  return { byOp, mismatches };
}
