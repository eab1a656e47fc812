import { ExecuteCommandRequest, type Diagnostic, type DiagnosticSeverity } from "vscode-languageserver-protocol";
import type { SessionRequests } from "./session-requests.js";

/** typescript-language-server's pass-through to tsserver (`workspace/executeCommand`). */
const tsserverRequest = "typescript.tsserverRequest";

/** tsserver's own diagnostic shape (1-based line and offset). */
interface TsserverDiagnostic {
  start?: { line?: number; offset?: number };
  end?: { line?: number; offset?: number };
  text?: string;
  code?: number;
  category?: string;
}

const severities: Record<string, DiagnosticSeverity> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function toDiagnostic(item: TsserverDiagnostic): Diagnostic | undefined {
  const start = item.start;
  const end = item.end ?? start;
  if (
    typeof start?.line !== "number" ||
    typeof start.offset !== "number" ||
    typeof end?.line !== "number" ||
    typeof end.offset !== "number"
  )
    return undefined;
  return {
    range: {
      start: { line: start.line - 1, character: start.offset - 1 },
      end: { line: end.line - 1, character: end.offset - 1 },
    },
    severity: severities[item.category ?? "error"] ?? 1,
    ...(typeof item.code === "number" ? { code: item.code } : {}),
    // The same source typescript-language-server puts on its published diagnostics, so ledger keys agree.
    source: "typescript",
    message: String(item.text ?? ""),
  };
}

/** Send one tsserver command through typescript-language-server; `undefined` when the server does not offer the pass-through. */
export async function askTsserver(
  session: SessionRequests,
  command: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  const commands = session.capabilities.executeCommandProvider?.commands ?? [];
  if (!commands.includes(tsserverRequest)) return undefined;
  const answer: unknown = await session.request(
    ExecuteCommandRequest.method,
    (connection, token) =>
      connection.sendRequest(
        ExecuteCommandRequest.type,
        { command: tsserverRequest, arguments: [command, args] },
        token,
      ),
    signal,
  );
  return (answer as { body?: unknown } | null)?.body ?? answer;
}

async function ask(
  session: SessionRequests,
  command: string,
  file: string,
  signal: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  const body = await askTsserver(session, command, { file }, signal);
  if (!Array.isArray(body)) return undefined;
  return (body as TsserverDiagnostic[]).flatMap((item) => toDiagnostic(item) ?? []);
}

/**
 * Pull a TypeScript file's diagnostics from tsserver itself, for the text the server has now.
 * typescript-language-server only pushes, without a document version, 300–800 ms after a change and
 * not at all when a file stays clean: a publish after a sync may be for the text before it, and a clean
 * file never answers. tsserver's `syntacticDiagnosticsSync` and `semanticDiagnosticsSync` answer for
 * the current text. @returns `undefined` when the server does not offer the pass-through.
 */
export async function pullTsserverDiagnostics(
  session: SessionRequests,
  path: string,
  signal: AbortSignal,
): Promise<Diagnostic[] | undefined> {
  const [syntactic, semantic] = await Promise.all([
    ask(session, "syntacticDiagnosticsSync", path, signal),
    ask(session, "semanticDiagnosticsSync", path, signal),
  ]);
  if (syntactic === undefined || semantic === undefined) return undefined;
  return [...syntactic, ...semantic];
}

/**
 * The files that import `path` (its `import`/`export … from`/`require` sites), from tsserver's
 * `fileReferences`, which reads the program's resolved imports rather than the text.
 * @returns `undefined` when the server does not offer the pass-through or tsserver has no project for the file.
 */
export async function tsserverImporters(
  session: SessionRequests,
  path: string,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  const body = await askTsserver(session, "fileReferences", { file: path }, signal).catch(() => undefined);
  const refs = (body as { refs?: unknown } | undefined)?.refs;
  if (!Array.isArray(refs)) return undefined;
  const files = (refs as Array<{ file?: unknown }>).flatMap((ref) => (typeof ref.file === "string" ? [ref.file] : []));
  return [...new Set(files)];
}
