// The baseline: a bare vscode-jsonrpc client of the same server program, doing only what the protocol
// requires (initialize, didOpen/didChange, answering the server's own requests) and nothing of the
// tool's work (no file reads, routing, position search, formatting). Its process is spawned in its
// own group through runtime-kit, so the group's memory can be read like the tool's server's.
import { pathToFileURL } from "node:url";
import { spawnOwnedProcess } from "@runbound/runtime-kit";
import { StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { createProtocolConnection } from "vscode-languageserver-protocol/node";
import {
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
} from "vscode-languageserver-protocol";

/** Wait until `done()` holds after one of `wakers`' notifications, or `ms` passed. @returns whether it held. */
function waitUntil(wakers, done, ms) {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      wakers.delete(check);
      resolve(done());
    };
    const check = () => {
      if (done()) finish();
    };
    const timer = setTimeout(finish, ms);
    wakers.add(check);
  });
}

/**
 * Start the server and initialize it. `settings` (for `workspace/configuration`) answers by section
 * like the tool's session does, so both servers run with the same configuration.
 */
export async function startRawClient({ binary, args, root, env, capabilities, initializationOptions, settings }) {
  const child = await spawnOwnedProcess({ command: binary, args, cwd: root, env });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const wakers = new Set();
  const wake = () => {
    for (const check of [...wakers]) check();
  };
  const activeProgress = new Map();
  const publishes = new Map();
  let publishCount = 0;
  let pullRegistered = false;
  const section = (name) =>
    name === undefined || name === ""
      ? (settings ?? null)
      : name
          .split(".")
          .reduce(
            (value, key) => (value === null || typeof value !== "object" ? null : (value[key] ?? null)),
            settings ?? null,
          );
  connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => section(item.section)));
  connection.onRequest(RegistrationRequest.type, (params) => {
    if (params.registrations.some((registration) => registration.method === DocumentDiagnosticRequest.method))
      pullRegistered = true;
  });
  connection.onRequest(UnregistrationRequest.type, () => undefined);
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  connection.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: pathToFileURL(root).href, name: root }]);
  connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);
  connection.onNotification("$/progress", ({ token, value }) => {
    if (value?.kind === "begin") activeProgress.set(token, value.title);
    else if (value?.kind === "end") activeProgress.delete(token);
    wake();
  });
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    publishCount += 1;
    publishes.set(params.uri, { diagnostics: params.diagnostics, count: publishCount });
    wake();
  });
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  const initialized = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    clientInfo: { name: "runbound-bench-raw" },
    rootUri,
    rootPath: root,
    workspaceFolders: [{ uri: rootUri, name: root }],
    capabilities,
    initializationOptions,
  });
  await connection.sendNotification(InitializedNotification.type, {});
  const documents = new Map();
  let progressSeen = false;
  wakers.add(() => {
    if (activeProgress.size > 0) progressSeen = true;
  });

  return {
    pid: child.pid,
    connection,
    capabilities: initialized.capabilities,
    /** didOpen the first time, didChange (full text, next version) after. @returns the URI. */
    sync(path, text, languageId) {
      const uri = pathToFileURL(path).href;
      const open = documents.get(uri);
      if (open === undefined) {
        documents.set(uri, 1);
        void connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId, version: 1, text },
        });
      } else {
        documents.set(uri, open + 1);
        void connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: open + 1 },
          contentChanges: [{ text }],
        });
      }
      return uri;
    },
    /** Wait (at most `beginsWithinMs`) for the server to report work, then (at most `budgetMs`) for it to end. */
    async waitProjectLoaded(beginsWithinMs, budgetMs) {
      if (await waitUntil(wakers, () => progressSeen, beginsWithinMs))
        await waitUntil(wakers, () => activeProgress.size === 0, budgetMs);
    },
    publishCount: () => publishCount,
    /** Wait for a publish for `uri` after publish number `after` whose diagnostics satisfy `accept`. @returns them, or undefined after `ms`. */
    async waitForPublish(uri, after, accept, ms) {
      const matching = () => {
        const set = publishes.get(uri);
        return set !== undefined && set.count > after && accept(set.diagnostics);
      };
      return (await waitUntil(wakers, matching, ms)) ? publishes.get(uri).diagnostics : undefined;
    },
    /** Whether the server offers pull diagnostics (statically or by registration). */
    pulls: () => pullRegistered || initialized.capabilities.diagnosticProvider !== undefined,
    async stop() {
      await Promise.race([
        connection.sendRequest(ShutdownRequest.type),
        new Promise((resolve) => setTimeout(resolve, 1_000)),
      ]).catch(() => undefined);
      await connection.sendNotification(ExitNotification.type).catch(() => undefined);
      await child.waitForExit(1_000);
      connection.dispose();
      await child.stop({ graceMs: 500 });
    },
  };
}
