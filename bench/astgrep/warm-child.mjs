// A sequence of ast_grep calls in one fresh process (one run, one parser), as an agent makes them.
// Prints one JSON line: per call its wall time, total and the process's resident memory after it.
// Usage: node warm-child.mjs '{"workdir": ..., "language": ..., "patterns": [...], "parseCacheBytes"?: n}'
import { createRun } from "@runbound/runner-adapter";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "@runbound/tool-astgrep";
import { resultText, Workdir } from "@runbound/tool-kit";

const sequence = JSON.parse(process.argv[2]);
// The CLI has no size limit; lift ours so both read the same files.
const parser = createAstGrepParser({
  maxFileBytes: 1 << 30,
  ...(sequence.parseCacheBytes === undefined ? {} : { parseCacheBytes: sequence.parseCacheBytes }),
});
const run = createRun({ plugins: [astGrepPlugin] });
await run.attach(AstGrepParser, { value: parser });
await run.attach(Workdir, { value: sequence.workdir });
const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
const calls = [];
for (const pattern of sequence.patterns) {
  const started = performance.now();
  const result = await run.call("ast_grep", { pattern, path: sequence.path ?? ".", language: sequence.language });
  const wallMs = performance.now() - started;
  if (result.isError) {
    process.stderr.write(resultText(result));
    process.exit(2);
  }
  // sinceStartMs: from process start to this answer (node startup, import and registration included).
  calls.push({
    pattern,
    wallMs,
    sinceStartMs: performance.now(),
    total: result.structured.total,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  });
}
const cache = parser.parseCache?.stats();
await run.close();
process.stdout.write(`${JSON.stringify({ baselineRssMb, calls, cache })}\n`);
