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

/** The ops a running server cannot answer, from what it declared in `initialize` and registered since. */
export function unsupportedOps(session: LanguageServerSession): string[] {
  return Object.entries(OP_CAPABILITIES)
    .filter(([, needs]) => !hasCapability(session, needs.capability, needs.method))
    .map(([op]) => op);
}
