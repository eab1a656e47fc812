import type { ClientCapabilities } from "vscode-languageserver-protocol";

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
    symbol: { dynamicRegistration: false },
    // lsp_rename applies these itself, all files or none.
    workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"], failureHandling: "abort" },
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
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports", "source.fixAll"] } },
      isPreferredSupport: true,
      disabledSupport: true,
    },
  },
};
