import { defineTool, textResult, ToolError, Workdir, type ProgressUpdate } from "@runbound/tool-kit";
import * as v from "valibot";
import { recordCheckerBaseline } from "./checker-baseline.js";
import { incomingCallsOp, outgoingCallsOp } from "./call-hierarchy-op.js";
import { codeActionsOp } from "./code-actions-op.js";
import { dependencyFiles } from "./dependency-files.js";
import { diagnosticsOp } from "./diagnostics-op.js";
import { checkKinds } from "./document-outline.js";
import { hoverOp } from "./hover-op.js";
import { LSP_OPS, type LspOp } from "./lsp-ops.js";
import { lspOutputSchema } from "./lsp-output.js";
import { LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { navigationOp } from "./navigation-op.js";
import { openDocument, syncWithDisk } from "./open-document.js";
import type { OpAnswer, PositionedRequest } from "./op-types.js";
import { parsePathFilter } from "./path-filter.js";
import { REFERENCES_CAP } from "./places-answer.js";
import { MAX_CHECKED_PROJECTS, projectDiagnosticsOp } from "./project-diagnostics-op.js";
import { isProjectScope } from "./project-scope.js";
import { resolveInWorkdir, withDeadline } from "@runbound/runtime-kit";
import { SOURCE_MAX_LINES, sourceOp } from "./source-op.js";
import { statusOp } from "./status-op.js";
import { symbolCheck, symbolPosition } from "./symbol-position.js";
import { DOCUMENT_SYMBOLS_CAP, documentSymbolsOp, workspaceSymbolsOp, WORKSPACE_SYMBOLS_CAP } from "./symbols-op.js";
import { typeHierarchyOp } from "./type-hierarchy-op.js";

/** The budget of every op except the project checkers. */
const QUERY_BUDGET_MS = 90_000;

export { LSP_OPS };
const positionedOps = new Set<LspOp>([
  "definition",
  "type_definition",
  "implementation",
  "references",
  "incoming_calls",
  "outgoing_calls",
  "supertypes",
  "subtypes",
  "hover",
  "code_actions",
]);
const pagedOps = new Set<LspOp>(["references", "implementation", "incoming_calls"]);

const input = v.strictObject({
  op: v.pipe(
    v.picklist(LSP_OPS),
    v.description(
      `What to ask. status: which servers run, index or are missing, and why (starts nothing). definition / type_definition / implementation / references / incoming_calls / outgoing_calls / supertypes / subtypes / hover / code_actions: about the symbol at \`file\` + \`line\` + \`symbol\`. references, implementation and incoming_calls (every call of a function, each in its caller) come grouped by file, ${REFERENCES_CAP} a page (\`offset\` for the next), filtered by \`path\`; outgoing_calls lists the calls a function makes; supertypes / subtypes the types a type extends or implements, or that extend or implement it (not every server has them: \`status\` says). symbols: the outline of \`file\` (top level and members; \`depth\`, \`kinds\`; at most ${DOCUMENT_SYMBOLS_CAP}) or, with \`query\`, a project-wide search by name (at most ${WORKSPACE_SYMBOLS_CAP}). diagnostics: errors and warnings of \`file\` from its language server; with \`file\` \`"*"\` instead, each project's own checker (tsc --noEmit, pyright, go vet, cargo check, dart analyze) over every project root in the working directory (at most ${MAX_CHECKED_PROJECTS}; slow, seconds to minutes), or with \`"packages/app/*"\` over the projects in that directory (or the one containing it). source: lines \`line\`–\`end_line\` (at most ${SOURCE_MAX_LINES}) of \`file\`, also of a file outside the working directory (node_modules, site-packages, the Go module cache, the toolchain) once an answer in this run showed it as a location; read-only. reload: restart the server of \`file\`'s project.`,
    ),
  ),
  file: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Source file, relative to the working directory (or absolute inside it; for `source`, also an absolute path outside it that an answer showed). Required by every op except `status` and `symbols` with `query`. For `diagnostics` only: `"*"` runs every project\'s own checker, `"<directory>/*"` those of the projects in that directory.',
      ),
    ),
  ),
  line: v.optional(
    v.pipe(
      v.number(),
      v.description(
        "1-based line number of the symbol, as shown by the read tool. Required with `symbol` for the position ops. For `source`: the first line to show.",
      ),
    ),
  ),
  end_line: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(
        `For \`source\`: the last line to show (default \`line\` + 39; at most ${SOURCE_MAX_LINES} lines).`,
      ),
    ),
  ),
  symbol: v.optional(
    v.pipe(
      v.string(),
      v.description(
        "The identifier (or an exact substring of that line) the request is about, e.g. `parseConfig`; the position is its first character. Never a column number.",
      ),
    ),
  ),
  occurrence: v.optional(
    v.pipe(
      v.number(),
      v.description("Which occurrence of `symbol` on the line, 1-based, when it appears more than once."),
    ),
  ),
  query: v.optional(
    v.pipe(v.string(), v.description("For `symbols`: a name or part of one to search for in the whole project.")),
  ),
  path: v.optional(
    v.pipe(
      v.string(),
      v.description(
        "For `references`, `implementation`, `incoming_calls`: keep only places under this folder or matching this glob, inside the working directory, e.g. `src/api` or `src/**/*.test.ts`.",
      ),
    ),
  ),
  offset: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.description(
        `For \`references\`, \`implementation\`, \`incoming_calls\`: how many places to skip, to see the next page of ${REFERENCES_CAP} (the answer says \`next: offset N\`).`,
      ),
    ),
  ),
  depth: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(
        "For `symbols` of a `file`: levels to show (1 = top level only). Without it: top level and members, no parameters or locals; with it, those too down to that level.",
      ),
    ),
  ),
  kinds: v.optional(
    v.pipe(
      v.array(v.string()),
      v.description(
        'For `symbols` of a `file`: only symbols of these kinds, e.g. ["class","interface","type alias"] or ["method"] (also function, struct, field, property, variable, constant, enum, type…).',
      ),
    ),
  ),
});

type LspInput = v.InferOutput<typeof input>;

function required<T>(value: T | undefined, field: string, op: LspOp, example: string): T {
  if (value === undefined)
    throw new ToolError({
      code: "invalid_input",
      message: `\`op\` \`${op}\` needs \`${field}\`; give it, e.g. ${example}.`,
    });
  return value;
}

async function positioned(
  supervisor: LspSupervisorInstance,
  workdir: string,
  request: LspInput,
  signal: AbortSignal,
): Promise<PositionedRequest> {
  const example = `{"op":"${request.op}","file":"src/app.ts","line":12,"symbol":"loadConfig"}`;
  const file = required(request.file, "file", request.op, example);
  const line = required(request.line, "line", request.op, example);
  const symbol = required(request.symbol, "symbol", request.op, example);
  // The position is checked against the text before a server starts: a wrong one is answered at once.
  const document = await openDocument(supervisor, workdir, file, signal, {
    check: symbolCheck(line, symbol, request.occurrence),
  });
  return {
    workdir,
    supervisor,
    document,
    line,
    symbol,
    params: symbolPosition(document, line, symbol, request.occurrence),
  };
}

function refuseOutOfPlace(request: LspInput): void {
  const misplaced = [
    ...(pagedOps.has(request.op) ? [] : (["path", "offset"] as const).filter((field) => request[field] !== undefined)),
    ...(request.op === "symbols" && request.query === undefined
      ? []
      : (["depth", "kinds"] as const).filter((field) => request[field] !== undefined)),
    ...(request.op === "source" || request.end_line === undefined ? [] : (["end_line"] as const)),
  ];
  if (misplaced.length === 0) return;
  throw new ToolError({
    code: "invalid_input",
    message: `\`${misplaced[0]}\` does not apply to \`op\` \`${request.op}\`: \`path\` and \`offset\` page \`references\`, \`implementation\` and \`incoming_calls\`; \`depth\` and \`kinds\` shape \`symbols\` of a \`file\`; \`end_line\` ends \`source\`. Leave it out.`,
  });
}

async function answer(
  request: LspInput,
  supervisor: LspSupervisorInstance,
  workdir: string,
  signal: AbortSignal,
  progress: (update: ProgressUpdate) => void,
): Promise<OpAnswer> {
  const op = request.op;
  refuseOutOfPlace(request);
  if (op === "status") return statusOp(supervisor, workdir, request.file);
  if (positionedOps.has(op)) {
    const at = await positioned(supervisor, workdir, request, signal);
    if (op === "hover") return hoverOp(at, signal);
    if (op === "code_actions") return codeActionsOp(at, request.symbol!.length, signal);
    if (op === "outgoing_calls") return outgoingCallsOp(at, signal);
    if (op === "supertypes" || op === "subtypes") return typeHierarchyOp(op, at, signal);
    const list = {
      offset: request.offset ?? 0,
      ...(request.path === undefined ? {} : { filter: await parsePathFilter(workdir, request.path) }),
    };
    if (op === "incoming_calls") return incomingCallsOp(at, list, signal);
    return navigationOp(op as "definition" | "type_definition" | "implementation" | "references", at, list, signal);
  }
  if (op === "symbols") {
    if (request.query !== undefined) {
      const sessions =
        request.file === undefined
          ? supervisor.running()
          : [(await openDocument(supervisor, workdir, request.file, signal)).session];
      // Without a file no document is opened, so nothing re-synced the open ones with the disk yet.
      if (request.file === undefined) await Promise.all(sessions.map((session) => syncWithDisk(session, workdir)));
      return workspaceSymbolsOp(sessions, request.query, workdir, dependencyFiles(supervisor), signal);
    }
    const file = required(
      request.file,
      "file",
      op,
      `{"op":"symbols","file":"src/app.ts"} or {"op":"symbols","query":"Config"}`,
    );
    const outline = {
      ...(request.depth === undefined ? {} : { depth: request.depth }),
      ...(request.kinds === undefined ? {} : { kinds: checkKinds(request.kinds) }),
    };
    return documentSymbolsOp(await openDocument(supervisor, workdir, file, signal), outline, signal);
  }
  if (op === "diagnostics" && request.file !== undefined && isProjectScope(request.file)) {
    return projectDiagnosticsOp({
      workdir,
      file: request.file,
      servers: supervisor.servers,
      // The supervisor resolves a root's program with its own PATH; here the program is the checker.
      findChecker: (spec, checker, root) => supervisor.findProgram({ ...spec, server: checker }, root, workdir),
      env: supervisor.env,
      placement: supervisor.placement,
      signal,
      onProgress: (message, done, total) => progress({ message, progress: done, total }),
      // What the checkers report is what the model was told of those files: later writes compare with it.
      onChecked: (spec, root, findings) => recordCheckerBaseline(supervisor.ledger, spec, root, findings),
    });
  }
  const file = required(request.file, "file", op, `{"op":"${op}","file":"src/app.ts"}`);
  if (op === "source")
    return sourceOp(
      supervisor,
      workdir,
      file,
      required(request.line, "line", op, `{"op":"source","file":"${file}","line":150,"end_line":190}`),
      request.end_line,
    );
  if (op === "diagnostics") return diagnosticsOp(await openDocument(supervisor, workdir, file, signal), signal);
  // Not through openDocument: that would refuse a broken server, which is what reload is for.
  const session = await supervisor.reload(workdir, await resolveInWorkdir(workdir, file), signal);
  return {
    text: `Restarted \`${session.spec.id}\` for \`${session.shownRoot}\` (pid ${session.pid}); its crash count is reset.`,
    structured: { op: "reload", server: session.spec.id, root: session.shownRoot, pid: session.pid },
  };
}

/** Language-server navigation, diagnostics and status for the model. */
export const lspTool = defineTool({
  name: "lsp",
  title: "Language server query",
  tier: "read",
  description:
    'Ask the project\'s language server (TypeScript/JavaScript, Python, Go, Rust, C/C++, Dart) about code: go to definition, find references, callers and callees, super- and subtypes, hover docs, symbols, diagnostics, code actions. Address code by `file` + 1-based `line` + `symbol` (the identifier as written on that line; add `occurrence` if it appears twice) — never by column. A server runs only for files under a project root marker (tsconfig.json, package.json, pyproject.toml, go.mod, Cargo.toml, …) whose program is installed; `status` says which and why not. Answers list workspace-relative path:line with the source line, say "N of M" when cut, and say when the server is still indexing.',
  input,
  requires: [LspSupervisor, Workdir],
  parallelSafe: true,
  output: lspOutputSchema,
  // The project checkers of `diagnostics` "*" may take minutes (each is bounded on its own); every other op gets QUERY_BUDGET_MS.
  timeoutMs: 600_000,
  run: async (request, context) => {
    const supervisor = context.resource(LspSupervisor);
    const workdir = context.resource(Workdir);
    // The server's indexing becomes the call's progress (MCP progress notifications through the host).
    const stopListening = supervisor.listenProgress((server, progress) =>
      context.progress({
        message: `${server}: ${progress.title}${progress.message === undefined ? "" : ` — ${progress.message}`}`,
        ...(progress.percentage === undefined ? {} : { progress: progress.percentage, total: 100 }),
      }),
    );
    try {
      const progress = (update: ProgressUpdate): void => context.progress(update);
      const checkers = request.op === "diagnostics" && request.file !== undefined && isProjectScope(request.file);
      const result = checkers
        ? await answer(request, supervisor, workdir, context.signal, progress)
        : await withDeadline(context.signal, QUERY_BUDGET_MS, (signal) =>
            answer(request, supervisor, workdir, signal, progress),
          );
      return textResult(result.text, result.structured);
    } finally {
      stopListening();
    }
  },
});
