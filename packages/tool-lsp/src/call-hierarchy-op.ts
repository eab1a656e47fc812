import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  SymbolKind,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
} from "vscode-languageserver-protocol";
import { boundedRows } from "./bounded-rows.js";
import { dependencyFiles } from "./dependency-files.js";
import { placePath, showLocations } from "./format-locations.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { ListOptions, OpAnswer, PositionedRequest } from "./op-types.js";
import { askForOp } from "./op-capabilities.js";
import { placesAnswer, REFERENCES_CAP } from "./places-answer.js";
import { emptyAnswer, partialNote } from "./readiness-note.js";
import { requireCapability } from "./require-capability.js";

const maxRowsBytes = 14 * 1024;
const isItem = (item: unknown): item is CallHierarchyItem =>
  typeof (item as CallHierarchyItem | null)?.name === "string" &&
  typeof (item as CallHierarchyItem).uri === "string" &&
  typeof (item as CallHierarchyItem).selectionRange?.start?.line === "number";

/** The call hierarchy items at the position (one per overload or declaration); [] when there is no callable there. */
async function prepare(
  session: LanguageServerSession,
  op: string,
  request: PositionedRequest,
  signal: AbortSignal,
): Promise<CallHierarchyItem[]> {
  requireCapability(session, "callHierarchyProvider", CallHierarchyPrepareRequest.method, op);
  const items = await askForOp(session, op, CallHierarchyPrepareRequest.method, () =>
    session.request(
      CallHierarchyPrepareRequest.method,
      (connection, token) => connection.sendRequest(CallHierarchyPrepareRequest.type, request.params, token),
      signal,
    ),
  );
  return (Array.isArray(items) ? items : []).filter(isItem);
}

function noCallable(session: LanguageServerSession, target: string, op: string): OpAnswer {
  return {
    text: emptyAnswer(
      session,
      `No function or method at ${target} to list calls of; point \`symbol\` at its name, where it is declared or called`,
    ),
    structured: { op, total: 0, places: [] },
  };
}

// A call at a module's top level comes from the file itself (typescript-language-server names it by the file).
const callerName = (item: CallHierarchyItem): string | undefined =>
  item.kind === SymbolKind.File ? undefined : item.name;

/** Answer `incoming_calls`: every call of the function at the position, grouped by file, each in its caller; pages like `references`. */
export async function incomingCallsOp(
  request: PositionedRequest,
  list: ListOptions,
  signal: AbortSignal,
): Promise<OpAnswer> {
  const session = request.document.session;
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  const items = await prepare(session, "incoming_calls", request, signal);
  if (items.length === 0) return noCallable(session, target, "incoming_calls");
  const places = [];
  for (const item of items) {
    const calls = await askForOp(session, "incoming_calls", CallHierarchyIncomingCallsRequest.method, () =>
      session.request(
        CallHierarchyIncomingCallsRequest.method,
        (connection, token) => connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item }, token),
        signal,
      ),
    );
    for (const call of (Array.isArray(calls) ? calls : []) as CallHierarchyIncomingCall[]) {
      if (!isItem(call?.from) || !Array.isArray(call.fromRanges)) continue;
      const caller = callerName(call.from);
      for (const range of call.fromRanges) {
        if (typeof range?.start?.line === "number")
          places.push({
            uri: call.from.uri,
            line: range.start.line,
            ...(caller === undefined ? {} : { enclosing: caller }),
          });
      }
    }
  }
  return placesAnswer(request, list, signal, { op: "incoming_calls", noun: ["call", "calls"], places });
}

/**
 * Answer `outgoing_calls`: every call the function at the position makes, in source order, each with
 * the callee and where the callee is declared.
 */
export async function outgoingCallsOp(request: PositionedRequest, signal: AbortSignal): Promise<OpAnswer> {
  const session = request.document.session;
  const target = `\`${request.symbol}\` at ${request.document.shown}:${request.line}`;
  const items = await prepare(session, "outgoing_calls", request, signal);
  if (items.length === 0) return noCallable(session, target, "outgoing_calls");
  const calls: Array<{ uri: string; line: number; callee: string; calleeUri: string; calleeLine: number }> = [];
  for (const item of items) {
    // clangd 14 declares the call hierarchy but has no outgoing calls.
    const answer = await askForOp(session, "outgoing_calls", CallHierarchyOutgoingCallsRequest.method, () =>
      session.request(
        CallHierarchyOutgoingCallsRequest.method,
        (connection, token) => connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item }, token),
        signal,
      ),
    );
    for (const call of (Array.isArray(answer) ? answer : []) as CallHierarchyOutgoingCall[]) {
      if (!isItem(call?.to) || !Array.isArray(call.fromRanges)) continue;
      for (const range of call.fromRanges) {
        if (typeof range?.start?.line === "number")
          calls.push({
            uri: item.uri,
            line: range.start.line,
            callee: call.to.name,
            calleeUri: call.to.uri,
            calleeLine: call.to.selectionRange.start.line,
          });
      }
    }
  }
  if (calls.length === 0)
    return {
      text: emptyAnswer(session, `No calls made by ${target}`),
      structured: { op: "outgoing_calls", total: 0, calls: [] },
    };
  calls.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) || a.line - b.line);
  const known = new Map([[request.document.path, request.document.text]]);
  const dependencies = dependencyFiles(request.supervisor);
  const sites = await showLocations(request.workdir, calls, { dedupe: false, known, dependencies });
  const rows = calls.map((call, index) => {
    const site = sites[index]!;
    const callee = placePath(request.workdir, call.calleeUri);
    // Named, not read: the row's source is the call site; `source` may read the callee's file later.
    if (!callee.inside && callee.path !== undefined) dependencies.remember(callee.path);
    return `${site.path}:${site.line} → ${call.callee} (${callee.shown}:${call.calleeLine + 1})${site.source === undefined ? "" : `: ${site.source}`}`;
  });
  const bounded = boundedRows({
    rows,
    total: rows.length,
    cap: REFERENCES_CAP * 2,
    maxBytes: maxRowsBytes,
    noun: ["call", "calls"],
    narrow: "ask `outgoing_calls` of a smaller function, or `incoming_calls` of one callee",
  });
  return {
    text: `${partialNote(session)}${bounded.header.replace(/\.$/, "")} made by ${target}:\n${bounded.shown.join("\n")}`,
    structured: { op: "outgoing_calls", total: rows.length, calls: bounded.shown },
  };
}
