// One ast_grep call in a fresh process, as a user's runner would make it. Prints one JSON line.
// Usage: node tool-child.mjs '<case json>' [verify]
import { readFileSync } from "node:fs";
import { createRun } from "@runbound/runner-adapter";
import { AstGrepParser, astGrepPlugin, createAstGrepParser } from "@runbound/tool-astgrep";
import { resultText, Workdir } from "@runbound/tool-kit";

const benchCase = JSON.parse(process.argv[2]);
const verify = process.argv[3] === "verify";
// The CLI has no size limit; lift ours so both read the same files.
const parser = createAstGrepParser({
  maxFileBytes: 1 << 30,
  ...(benchCase.parseCacheBytes === undefined ? {} : { parseCacheBytes: benchCase.parseCacheBytes }),
});

if (verify) {
  const root = `${benchCase.workdir}/${benchCase.path}`.replace(/\/\.$/, "");
  const outcome = await parser.search({
    workdir: benchCase.workdir,
    root,
    language: parser.language(benchCase.language),
    pattern: benchCase.pattern,
    keep: Number.POSITIVE_INFINITY,
  });
  const lines = new Map();
  const keys = outcome.matches.map((match) => {
    let fileLines = lines.get(match.path);
    if (fileLines === undefined) lines.set(match.path, (fileLines = readFileSync(match.path, "utf8").split("\n")));
    // napi columns are UTF-16 units; the CLI's are code points.
    const column = [...(fileLines[match.line] ?? "").slice(0, match.column)].length;
    const lastLine = match.text.slice(match.text.lastIndexOf("\n") + 1);
    const endColumn = match.endLine > match.line ? [...lastLine].length : column + [...match.text].length;
    return `${match.path}:${match.line}:${column}-${match.endLine}:${endColumn}`;
  });
  process.stdout.write(`${JSON.stringify({ total: outcome.total, keys })}\n`);
} else {
  // The tool as a host calls it: through runner-adapter's dispatch (validation, budget, output cap).
  const run = createRun({ plugins: [astGrepPlugin] });
  await run.attach(AstGrepParser, { value: parser });
  await run.attach(Workdir, { value: benchCase.workdir });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run.call("ast_grep", {
    pattern: benchCase.pattern,
    path: benchCase.path,
    language: benchCase.language,
    ...(benchCase.maxResults === undefined ? {} : { max_results: benchCase.maxResults }),
  });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await run.close();
  if (result.isError) {
    process.stderr.write(resultText(result));
    process.exit(2);
  }
  process.stdout.write(
    `${JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, total: result.structured.total, shown: result.structured.matches.length, textBytes: Buffer.byteLength(resultText(result)) })}\n`,
  );
}
