import {
  DefinitionRequest,
  ImplementationRequest,
  ReferencesRequest,
  TypeDefinitionRequest,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { dependencyFiles } from "./dependency-files.js";
import { locationRow, locationsOf, showLocations } from "./format-locations.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { ListOptions, OpAnswer, PositionedRequest } from "./op-types.js";
import { placesAnswer } from "./places-answer.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";

/** The navigation ops: each asks one request at a position and answers a list of places. */
export type NavigationOp = "definition" | "type_definition" | "implementation" | "references";

const maxRowsBytes = 14 * 1024;

interface NavigationKind {
  method: string;
  capability: keyof ServerCapabilities;
  noun: readonly [string, string];
  send: (session: LanguageServerSession, request: PositionedRequest, signal: AbortSignal) => Promise<unknown>;
}

const kinds: Record<NavigationOp, NavigationKind> = {
  definition: {
    method: DefinitionRequest.method,
    capability: "definitionProvider",
    noun: ["definition", "definitions"],
    send: (session, request, signal) =>
      session.request(
        DefinitionRequest.method,
        (connection, token) => connection.sendRequest(DefinitionRequest.type, request.params, token),
        signal,
      ),
  },
  type_definition: {
    method: TypeDefinitionRequest.method,
    capability: "typeDefinitionProvider",
    noun: ["type definition", "type definitions"],
    send: (session, request, signal) =>
      session.request(
        TypeDefinitionRequest.method,
        (connection, token) => connection.sendRequest(TypeDefinitionRequest.type, request.params, token),
        signal,
      ),
  },
  implementation: {
    method: ImplementationRequest.method,
    capability: "implementationProvider",
    noun: ["implementation", "implementations"],
    send: (session, request, signal) =>
      session.request(
        ImplementationRequest.method,
        (connection, token) => connection.sendRequest(ImplementationRequest.type, request.params, token),
        signal,
      ),
  },
  references: {
    method: ReferencesRequest.method,
    capability: "referencesProvider",
    noun: ["reference", "references"],
    send: (session, request, signal) =>
      session.request(
        ReferencesRequest.method,
        (connection, token) =>
          connection.sendRequest(
            ReferencesRequest.type,
            { ...request.params, context: { includeDeclaration: true } },
            token,
          ),
        signal,
      ),
  },
};

/** Answer `definition`, `type_definition`, `implementation` or `references` at a resolved position; the last two page. */
export async function navigationOp(
  op: NavigationOp,
  request: PositionedRequest,
  list: ListOptions,
  signal: AbortSignal,
): Promise<OpAnswer> {
  const kind = kinds[op];
  const session = request.document.session;
  requireCapability(session, kind.capability, kind.method, op);
  const answer = await kind.send(session, request, signal);
  const { locations, malformed } = locationsOf(answer);
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  const garbled =
    malformed > 0 ? ` (${malformed} malformed ${malformed === 1 ? "entry" : "entries"} from the server ignored)` : "";
  if (op === "references" || op === "implementation") {
    return placesAnswer(request, list, signal, { op, noun: kind.noun, places: locations, aside: garbled });
  }
  if (locations.length === 0) {
    return {
      text: emptyAnswer(session, `No ${kind.noun[1]} found for ${target}${garbled}`),
      structured: { op, total: 0, locations: [] },
    };
  }
  const shown = await showLocations(request.workdir, locations, {
    known: new Map([[request.document.path, request.document.text]]),
    dependencies: dependencyFiles(request.supervisor),
  });
  const rows = boundedRows({
    rows: shown.map(locationRow),
    total: shown.length,
    cap: 100,
    maxBytes: maxRowsBytes,
    noun: kind.noun,
    narrow: "the server gives this many; look at one with `hover`",
  });
  const text = `${partialNote(session)}${rows.header.replace(/\.$/, "")} for ${target}${garbled}:\n${rows.shown.join("\n")}`;
  return { text, structured: { op, total: shown.length, locations: shown.slice(0, rows.shown.length) } };
}
