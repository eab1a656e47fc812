import {
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
  type TypeHierarchyItem,
} from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { dependencyFiles } from "./dependency-files.js";
import { locationRow, showLocations } from "./format-locations.js";
import { askForOp } from "./op-capabilities.js";
import type { OpAnswer, PositionedRequest } from "./op-types.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";
import { declaredKindName } from "./symbol-kind-name.js";

/** The most types listed. */
export const TYPE_HIERARCHY_CAP = 100;
const maxRowsBytes = 14 * 1024;

const isItem = (item: unknown): item is TypeHierarchyItem =>
  typeof (item as TypeHierarchyItem | null)?.name === "string" &&
  typeof (item as TypeHierarchyItem).uri === "string" &&
  typeof (item as TypeHierarchyItem).selectionRange?.start?.line === "number";

/**
 * Answer `supertypes` or `subtypes` of the type at the position: the types it extends or implements,
 * or those that extend or implement it (one level), as `kind Name — path:line: source`.
 */
export async function typeHierarchyOp(
  op: "supertypes" | "subtypes",
  request: PositionedRequest,
  signal: AbortSignal,
): Promise<OpAnswer> {
  const session = request.document.session;
  requireCapability(session, "typeHierarchyProvider", TypeHierarchyPrepareRequest.method, op);
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  // clangd 14 declares `typeHierarchyProvider` for its own pre-3.17 extension and has no `prepareTypeHierarchy`.
  const prepared = await askForOp(session, op, TypeHierarchyPrepareRequest.method, () =>
    session.request(
      TypeHierarchyPrepareRequest.method,
      (connection, token) => connection.sendRequest(TypeHierarchyPrepareRequest.type, request.params, token),
      signal,
    ),
  );
  const items = (Array.isArray(prepared) ? prepared : []).filter(isItem);
  if (items.length === 0) {
    return {
      text: emptyAnswer(
        session,
        `No type at ${target} to list ${op} of; point \`symbol\` at a class, interface or type name`,
      ),
      structured: { op, total: 0, types: [] },
    };
  }
  const method = op === "supertypes" ? TypeHierarchySupertypesRequest : TypeHierarchySubtypesRequest;
  const found: TypeHierarchyItem[] = [];
  for (const item of items) {
    const answer = await askForOp(session, op, method.method, () =>
      session.request(
        method.method,
        (connection, token) => connection.sendRequest(method.type, { item }, token),
        signal,
      ),
    );
    found.push(...(Array.isArray(answer) ? answer : []).filter(isItem));
  }
  const nouns = op === "supertypes" ? (["supertype", "supertypes"] as const) : (["subtype", "subtypes"] as const);
  if (found.length === 0)
    return { text: emptyAnswer(session, `No ${nouns[1]} of ${target}`), structured: { op, total: 0, types: [] } };
  const places = await showLocations(
    request.workdir,
    found.map((item) => ({ uri: item.uri, line: item.selectionRange.start.line })),
    {
      dedupe: false,
      known: new Map([[request.document.path, request.document.text]]),
      dependencies: dependencyFiles(request.supervisor),
    },
  );
  const rows = found.map(
    (item, index) =>
      `${declaredKindName(item.kind, places[index]!.source, item.name, session.spec.id)} ${item.name} — ${locationRow(places[index]!)}`,
  );
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: TYPE_HIERARCHY_CAP,
    maxBytes: maxRowsBytes,
    noun: nouns,
    narrow: "look at one with `hover`",
  });
  return {
    text: `${partialNote(session)}${bounded.header.replace(/\.$/, "")} of ${target}:\n${bounded.shown.join("\n")}`,
    structured: { op, total: rows.length, types: bounded.shown },
  };
}
