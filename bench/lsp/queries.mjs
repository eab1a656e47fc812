// The questions both sides ask, at the same file and position, and how their answers are compared so
// the timings are of the same work (same locations; the raw hover's signature inside the tool's text).
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DefinitionRequest, HoverRequest, ReferencesRequest } from "vscode-languageserver-protocol";

/**
 * Where a symbol is: the first line of `path` containing `lineText`, and the 0-based UTF-16 column of
 * the `occurrence`-th `symbol` in it (the fixtures' lines are ASCII, so the JS index is the UTF-16 column).
 */
function locate(path, lineText, symbol, occurrence = 1) {
  const lines = readFileSync(path, "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes(lineText));
  if (index === -1)
    throw new Error(
      `The fixture file \`${path}\` has no line containing \`${lineText}\`; change the query in bench/lsp/servers.mjs to a line that exists.`,
    );
  let character = -1;
  for (let found = 0; found < occurrence; found++) character = lines[index].indexOf(symbol, character + 1);
  if (character === -1)
    throw new Error(
      `Line ${index + 1} of \`${path}\` does not contain \`${symbol}\`; change the query in bench/lsp/servers.mjs.`,
    );
  return { line: index + 1, character };
}

/** The query's input for the tool and its request for the raw client, in `workdir`. */
export function prepare(query, workdir) {
  const path = join(workdir, query.file);
  const { line, character } = locate(path, query.lineText, query.symbol, query.occurrence);
  return {
    ...query,
    path,
    text: readFileSync(path, "utf8"),
    toolInput: {
      op: query.op,
      file: query.file,
      line,
      symbol: query.symbol,
      ...(query.occurrence === undefined ? {} : { occurrence: query.occurrence }),
    },
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
  // Rows are `path:line: source` (definition) or grouped by file: a `path` heading, then
  // `  line: source` / `  line in Symbol: source` rows under it (references, implementation).
  const places = [];
  let file;
  for (const row of text.split("\n").slice(1)) {
    const single = /^(\S+?:\d+)(?::|$)/.exec(row)?.[1];
    if (single !== undefined) {
      places.push(single);
      continue;
    }
    const grouped = /^\s+(\d+)(?: in [^:]+)?:/.exec(row);
    if (grouped !== null && file !== undefined) places.push(`${file}:${grouped[1]}`);
    else if (/^\S+$/.test(row)) file = row;
  }
  return places.sort();
}

/** Whether both sides gave the same answer (the tool lists at most 50 references). Returns a reason when not. */
export function sameAnswer(query, toolText, rawAnswer, rawWorkdir) {
  if (query.op === "hover") {
    const value =
      typeof rawAnswer?.contents === "object" && "value" in rawAnswer.contents
        ? rawAnswer.contents.value
        : JSON.stringify(rawAnswer?.contents);
    const signature = /```\w*\n([^\n]+)/.exec(value)?.[1] ?? value.split("\n")[0];
    return toolText.includes(signature) ? undefined : `the tool's hover lacks the raw signature \`${signature}\``;
  }
  const raw = rawPlaces(rawAnswer, rawWorkdir).slice(0, 50);
  const tool = toolPlaces(toolText);
  const missing = raw.filter((place) => !tool.includes(place));
  return missing.length === 0 && tool.length === raw.length
    ? undefined
    : `raw ${raw.length} places, tool ${tool.length}; raw only: ${missing.slice(0, 3).join(", ")}`;
}
