import { SymbolKind, type ClientCapabilities } from "vscode-languageserver-protocol";

// Without a value set a server may only use the kinds from File to Array (LSP 3.17 §documentSymbol),
// so a Go struct or a TS type parameter would come back as a class or a variable.
const symbolKinds = Object.values(SymbolKind).filter((kind): kind is SymbolKind => typeof kind === "number");

/**
 * What this client advertises: only what it implements, because servers that are told of a feature
 * use it (a server told of progress support sends `window/workDoneProgress/create` and waits).
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16", "utf-8", "utf-32"] },
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true },
    symbol: { dynamicRegistration: false, symbolKind: { valueSet: symbolKinds } },
    // lsp_rename applies these itself, all files or none.
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ["create", "rename", "delete"],
      failureHandling: "abort",
    },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: symbolKinds } },
    callHierarchy: { dynamicRegistration: false },
    typeHierarchy: { dynamicRegistration: false },
    rename: { prepareSupport: true },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            "",
            "quickfix",
            "refactor",
            "refactor.extract",
            "refactor.inline",
            "refactor.rewrite",
            "source",
            "source.organizeImports",
            "source.fixAll",
          ],
        },
      },
      isPreferredSupport: true,
      disabledSupport: true,
    },
  },
};
