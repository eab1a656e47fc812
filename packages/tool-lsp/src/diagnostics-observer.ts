import { defineWriteObserver, Workdir } from "@runbound/tool-kit";
import { diagnosticsAfterWrite } from "./diagnostics-after-write.js";
import { LspSupervisor } from "./lsp-supervisor.js";

/**
 * Diagnostics on write: after any tool reports written files (the runner's write/edit/apply_patch,
 * `resolve`, `lsp_rename`), sync them to their language servers and append what the write introduced
 * and resolved to that tool's result.
 */
export const lspDiagnosticsObserver = defineWriteObserver({
  name: "lsp diagnostics",
  requires: [LspSupervisor, Workdir],
  observe: (paths, context) =>
    diagnosticsAfterWrite(
      context.resource(LspSupervisor),
      context.resource(Workdir),
      paths,
      context.signal,
      context.progress,
    ),
});
