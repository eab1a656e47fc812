import {
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  ReferencesRequest,
  TypeDefinitionRequest,
  TypeHierarchyPrepareRequest,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { ToolError } from "@runbound/tool-kit";
import { ErrorCodes, ResponseError } from "vscode-jsonrpc/node";
import type { LanguageServerSession } from "./language-server-session.js";
import { hasCapability } from "./require-capability.js";

/** What a server must offer for an `lsp` op: the capability and the request it sends first. */
export interface OpCapability {
  capability: keyof ServerCapabilities;
  method: string;
}

/** The ops that depend on one server capability each. */
export const OP_CAPABILITIES: Readonly<Record<string, OpCapability>> = {
  definition: { capability: "definitionProvider", method: DefinitionRequest.method },
  type_definition: { capability: "typeDefinitionProvider", method: TypeDefinitionRequest.method },
  implementation: { capability: "implementationProvider", method: ImplementationRequest.method },
  references: { capability: "referencesProvider", method: ReferencesRequest.method },
  hover: { capability: "hoverProvider", method: HoverRequest.method },
  symbols: { capability: "documentSymbolProvider", method: DocumentSymbolRequest.method },
  code_actions: { capability: "codeActionProvider", method: CodeActionRequest.method },
  incoming_calls: { capability: "callHierarchyProvider", method: CallHierarchyPrepareRequest.method },
  outgoing_calls: { capability: "callHierarchyProvider", method: CallHierarchyPrepareRequest.method },
  supertypes: { capability: "typeHierarchyProvider", method: TypeHierarchyPrepareRequest.method },
  subtypes: { capability: "typeHierarchyProvider", method: TypeHierarchyPrepareRequest.method },
};

/** Ops a server declared a capability for and then answered "method not found" (clangd 14: type hierarchy). */
const refusedOps = new WeakMap<LanguageServerSession, Set<string>>();

/**
 * The ops a running server cannot answer: `undeclared` from what it declared in `initialize` and
 * registered since, `refused` those it declared and then answered with "method not found" in this run.
 */
export function unsupportedOps(session: LanguageServerSession): { undeclared: string[]; refused: string[] } {
  const refused = refusedOps.get(session) ?? new Set<string>();
  const undeclared = Object.entries(OP_CAPABILITIES)
    .filter(([, needs]) => !hasCapability(session, needs.capability, needs.method))
    .map(([op]) => op);
  return { undeclared, refused: [...refused] };
}

/**
 * Send an op's request; a "method not found" answer from a server that declared the capability becomes
 * the same refusal as a missing capability, and `status` lists the op among those the server lacks.
 */
export async function askForOp<T>(
  session: LanguageServerSession,
  op: string,
  method: string,
  ask: () => Promise<T>,
): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (
      !(error instanceof ToolError) ||
      !(error.cause instanceof ResponseError) ||
      error.cause.code !== ErrorCodes.MethodNotFound
    )
      throw error;
    const refused = refusedOps.get(session) ?? new Set<string>();
    refusedOps.set(session, refused.add(op));
    throw new ToolError({
      code: "unavailable",
      message: `Language server \`${session.spec.id}\` for \`${session.shownRoot}\` does not support \`${op}\`: it declares the capability but answered \`${method}\` with "method not found". Use another op (\`lsp\` \`status\` lists the ops each running server lacks), or a text search.`,
      cause: error.cause,
    });
  }
}
