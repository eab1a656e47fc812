// Diagnostics after a write, on a breaking edit (a line with a type error appended: TypeScript 2322,
// pyright reportAssignmentType) and the fixing edit (the original text back), alternately.
// Tool: the bench's write tool through the run (atomic write + ctx.wrote). With tool-lsp's
// diagnostics-on-write observer the write's own result carries the diagnostics, so that call is the
// measurement; without it, the write is followed by an `lsp` `diagnostics` call and the two together
// are timed. Raw: write the file, didChange with the next version, then wait for the server's
// publishDiagnostics for the file that shows the expected state (or pull, where the server offers it).
import { writeFile } from "node:fs/promises";
import { DocumentDiagnosticRequest } from "vscode-languageserver-protocol";

const rawCeilingMs = 10_000;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function toolEdit({ tool, file, content, breaking, observer, code }) {
  const started = performance.now();
  const written = await tool.call("bench_write", { path: file, content });
  const writeMs = performance.now() - started;
  const text = observer ? written : await tool.call("lsp", { op: "diagnostics", file });
  const ms = performance.now() - started;
  // A break must name the new error; a fix must no longer show it (and, with the observer, say it was resolved).
  const expected = breaking ? text.includes(String(code)) : observer ? /resolved/i.test(text) : !text.includes(String(code));
  return { ms, writeMs, expected, text };
}

async function rawEdit({ raw, path, uri, content, breaking, languageId, code }) {
  const hasProbeError = (diagnostics) => diagnostics.some((diagnostic) => diagnostic.code === code);
  const accept = (diagnostics) => (breaking ? hasProbeError(diagnostics) : !hasProbeError(diagnostics));
  const started = performance.now();
  await writeFile(path, content);
  const before = raw.publishCount();
  raw.sync(path, content, languageId);
  if (raw.pulls()) {
    for (;;) {
      const report = await raw.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
      const items = report?.kind === "full" ? report.items : [];
      if (accept(items) || performance.now() - started > rawCeilingMs) return { ms: performance.now() - started, expected: accept(items), firstMs: performance.now() - started };
    }
  }
  let firstMs;
  void raw.waitForPublish(uri, before, () => true, rawCeilingMs).then(() => (firstMs ??= performance.now() - started));
  const diagnostics = await raw.waitForPublish(uri, before, accept, rawCeilingMs);
  const ms = performance.now() - started;
  return { ms, firstMs: firstMs ?? ms, expected: diagnostics !== undefined };
}

/**
 * `edits` pairs of (breaking, fixing) edits on each side, the side going first alternating, with a
 * short pause between measurements so one server's leftover work does not land in the other's time.
 */
export async function measureDiagnosticsAfterWrite({ tool, raw, file, rawPath, rawUri, original, languageId, edit, observer, edits, log }) {
  const broken = `${original.replace(/\n?$/, "\n")}${edit.breakingLine}\n`;
  const results = { tool: { breaking: [], fixing: [] }, raw: { breaking: [], fixing: [] }, samples: {} };
  for (let pair = 0; pair < edits; pair++) {
    for (const breaking of [true, false]) {
      const content = breaking ? broken : original;
      const kind = breaking ? "breaking" : "fixing";
      const sides = [
        async () => {
          const result = await toolEdit({ tool, file, content, breaking, observer, code: edit.code });
          results.tool[kind].push(result);
          results.samples[kind] ??= result.text;
          if (!result.expected) log(`  tool ${kind} edit ${pair + 1}: unexpected answer: ${result.text.slice(0, 300)}`);
        },
        async () => {
          const result = await rawEdit({ raw, path: rawPath, uri: rawUri, content, breaking, languageId, code: edit.code });
          results.raw[kind].push(result);
          if (!result.expected) log(`  raw ${kind} edit ${pair + 1}: no publish with the expected state within ${rawCeilingMs} ms`);
        },
      ];
      if (pair % 2 === 1) sides.reverse();
      for (const side of sides) {
        await side();
        await pause(150);
      }
    }
  }
  return results;
}
