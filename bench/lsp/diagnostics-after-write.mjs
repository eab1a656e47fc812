// Diagnostics after a write, per round: a breaking edit (a line with a type error appended: TypeScript
// 2322, pyright reportAssignmentType), the fixing edit (the original text back) and, in the first
// rounds, a neutral edit (a comment appended to the clean file: the diagnostics stay empty, which is
// what most writes are).
// Tool: the bench's write tool through the run (atomic write + ctx.wrote). With tool-lsp's
// diagnostics-on-write observer the write's own result carries the diagnostics, so that call is the
// measurement; without it, the write is followed by an `lsp` `diagnostics` call and the two together
// are timed. Raw: write the file, didChange with the next version, then wait for the server's
// publishDiagnostics for the file that shows the expected state (or pull, where the server offers it).
import { writeFile } from "node:fs/promises";
import { DocumentDiagnosticRequest } from "vscode-languageserver-protocol";

const rawCeilingMs = 10_000;
// A neutral edit may get no publish at all; the raw side waits this long to find out.
const rawNeutralCeilingMs = 3_000;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What each kind of edit must show. `code` is the breaking edit's diagnostic code. */
function expectations(kind, code, observer) {
  const hasProbeError = (diagnostics) => diagnostics.some((diagnostic) => diagnostic.code === code);
  if (kind === "breaking") return { tool: (text) => text.includes(String(code)), raw: hasProbeError };
  // The observer says what the write resolved; the `diagnostics` op just no longer lists it.
  if (kind === "fixing")
    return {
      tool: (text) => (observer ? /resolved/i.test(text) : !text.includes(String(code))),
      raw: (diagnostics) => !hasProbeError(diagnostics),
    };
  return {
    tool: (text) => /no new errors or warnings|no errors or warnings/i.test(text),
    raw: (diagnostics) => diagnostics.length === 0,
  };
}

async function toolEdit({ tool, file, content, observer, expect }) {
  const started = performance.now();
  const written = await tool.call("bench_write", { path: file, content });
  const writeMs = performance.now() - started;
  const text = observer ? written : await tool.call("lsp", { op: "diagnostics", file });
  return { ms: performance.now() - started, writeMs, expected: expect(text), text };
}

async function rawEdit({ raw, path, uri, content, languageId, accept, ceilingMs }) {
  const started = performance.now();
  await writeFile(path, content);
  const before = raw.publishCount();
  raw.sync(path, content, languageId);
  if (raw.pulls()) {
    for (;;) {
      const report = await raw.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
      const items = report?.kind === "full" ? report.items : [];
      const ms = performance.now() - started;
      if (accept(items) || ms > ceilingMs) return { ms, firstMs: ms, expected: accept(items), published: true };
    }
  }
  let firstMs;
  void raw.waitForPublish(uri, before, () => true, ceilingMs).then(() => (firstMs ??= performance.now() - started));
  const diagnostics = await raw.waitForPublish(uri, before, accept, ceilingMs);
  const ms = performance.now() - started;
  return { ms, firstMs: firstMs ?? ms, expected: diagnostics !== undefined, published: diagnostics !== undefined };
}

/**
 * `edits` rounds of (breaking, fixing) edits, plus a neutral one in the first `neutralEdits` rounds, on
 * each side, the side going first alternating, with a short pause between measurements so one server's
 * leftover work does not land in the other's time.
 */
export async function measureDiagnosticsAfterWrite({
  tool,
  raw,
  file,
  rawPath,
  rawUri,
  original,
  languageId,
  edit,
  observer,
  edits,
  neutralEdits,
  log,
}) {
  const clean = original.replace(/\n?$/, "\n");
  const kinds = ["breaking", "fixing", "neutral"];
  const results = { tool: {}, raw: {}, samples: {} };
  for (const kind of kinds) [results.tool[kind], results.raw[kind]] = [[], []];
  for (let round = 0; round < edits; round++) {
    for (const kind of round < neutralEdits ? kinds : kinds.slice(0, 2)) {
      const content =
        kind === "breaking"
          ? `${clean}${edit.breakingLine}\n`
          : kind === "fixing"
            ? original
            : `${clean}${edit.comment} neutral edit ${round}\n`;
      const expect = expectations(kind, edit.code, observer);
      const sides = [
        async () => {
          const result = await toolEdit({ tool, file, content, observer, expect: expect.tool });
          results.tool[kind].push(result);
          results.samples[kind] ??= result.text;
          if (!result.expected)
            log(
              `  tool ${kind} edit ${round + 1}: unexpected answer after ${result.ms.toFixed(0)} ms: ${JSON.stringify(result.text.slice(0, 300))}`,
            );
        },
        async () => {
          const ceilingMs = kind === "neutral" ? rawNeutralCeilingMs : rawCeilingMs;
          const result = await rawEdit({
            raw,
            path: rawPath,
            uri: rawUri,
            content,
            languageId,
            accept: expect.raw,
            ceilingMs,
          });
          results.raw[kind].push(result);
          if (!result.expected && kind !== "neutral")
            log(`  raw ${kind} edit ${round + 1}: no diagnostics with the expected state within ${ceilingMs} ms`);
        },
      ];
      if (round % 2 === 1) sides.reverse();
      for (const side of sides) {
        await side();
        await pause(150);
      }
    }
  }
  return results;
}
