// The questions both sides ask, at the same file and position, and how their answers are compared so
// the timings are of the same work (same locations; the raw hover's signature inside the tool's text).
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DefinitionRequest, HoverRequest, ReferencesRequest } from "vscode-languageserver-protocol";
import { locate } from "./fixture.mjs";

const file = "packages/tool-lsp/src/lsp-tool.ts";

/** Definition, hover and references on this repository's lsp tool source. */
export const TYPESCRIPT_QUERIES = [
  { op: "definition", file, lineText: "const document = await openDocument(", symbol: "openDocument", full: "packages/tool-lsp/src/open-document.ts:" },
  { op: "hover", file, lineText: "const position = positionFromSymbol(", symbol: "positionFromSymbol" },
  { op: "references", file, lineText: "import { LspSupervisor, type LspSupervisorInstance }", symbol: "LspSupervisor", occurrence: 1 },
];

/** The query's input for the tool and its request for the raw client, in `workdir`. */
export function prepare(query, workdir) {
  const path = join(workdir, query.file);
  const { line, character } = locate(path, query.lineText, query.symbol);
  return {
    ...query,
    path,
    text: readFileSync(path, "utf8"),
    toolInput: { op: query.op, file: query.file, line, symbol: query.symbol, ...(query.occurrence === undefined ? {} : { occurrence: query.occurrence }) },
    rawParams: (uri) => ({ textDocument: { uri }, position: { line: line - 1, character } }),
  };
}

/** Send the query's request on a raw client's connection. */
export function rawRequest(query, client, uri) {
  const params = query.rawParams(uri);
  if (query.op === "definition") return client.connection.sendRequest(DefinitionRequest.type, params);
  if (query.op === "hover") return client.connection.sendRequest(HoverRequest.type, params);
  return client.connection.sendRequest(ReferencesRequest.type, { ...params, context: { includeDeclaration: true } });
}

/** `path:line` of every place in a raw definition/references answer, relative to `workdir`, deduplicated and sorted. */
export function rawPlaces(answer, workdir) {
  const items = answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
  const places = items.map((item) => {
    const uri = item.targetUri ?? item.uri;
    const range = item.targetSelectionRange ?? item.targetRange ?? item.range;
    const path = fileURLToPath(uri);
    return `${path.startsWith(workdir) ? relative(workdir, path) : path}:${range.start.line + 1}`;
  });
  return [...new Set(places)].sort();
}

/** `path:line` of every row of the tool's answer, sorted. */
export function toolPlaces(text) {
  return text
    .split("\n")
    .slice(1)
    .map((row) => /^(\S+?:\d+)(?::|$)/.exec(row)?.[1])
    .filter((place) => place !== undefined)
    .sort();
}

/** Whether both sides gave the same answer (the tool lists at most 50 references). Returns a reason when not. */
export function sameAnswer(query, toolText, rawAnswer, rawWorkdir) {
  if (query.op === "hover") {
    const value = typeof rawAnswer?.contents === "object" && "value" in rawAnswer.contents ? rawAnswer.contents.value : JSON.stringify(rawAnswer?.contents);
    const signature = /```\w*\n([^\n]+)/.exec(value)?.[1] ?? value.split("\n")[0];
    return toolText.includes(signature) ? undefined : `the tool's hover lacks the raw signature \`${signature}\``;
  }
  const raw = rawPlaces(rawAnswer, rawWorkdir).slice(0, 50);
  const tool = toolPlaces(toolText);
  const missing = raw.filter((place) => !tool.includes(place));
  return missing.length === 0 && tool.length === raw.length ? undefined : `raw ${raw.length} places, tool ${tool.length}; raw only: ${missing.slice(0, 3).join(", ")}`;
}
