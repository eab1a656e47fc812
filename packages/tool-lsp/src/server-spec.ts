import type { Diagnostic } from "vscode-languageserver-protocol";
import type { SessionRequests } from "./session-requests.js";
/** A command line: the program (a name resolved project-local first, then on PATH) and its arguments. */
export interface CommandLine {
  /** Program name, e.g. `tsc`, or an absolute path. */
  command: string;
  /** Its arguments. */
  args: readonly string[];
}

/** How a project checker prints its findings; each has a reader in `src/checker-output/`. */
export type CheckerOutputFormat = "tsc" | "pyright-json" | "go-vet" | "cargo-json" | "dart-machine";

/** A project's own whole-project checker (`tsc --noEmit`, `pyright`, `go vet`, …), run from a root. */
export interface ProjectChecker extends CommandLine {
  /** How to read what it prints. */
  format: CheckerOutputFormat;
  /**
   * Run only in a root holding one of these files: a `package.json` alone is a root for the
   * TypeScript server, but `tsc` without a `tsconfig.json` prints its help instead of checking.
   */
  needsOneOf?: readonly string[];
  /** How to install the checker, for the "not found" line. */
  install: string;
}

/** Facts a server's settings may depend on. */
export interface ServerRootContext {
  /** The project root the server is started for (absolute). */
  root: string;
  /** The run's working directory (absolute). */
  workdir: string;
  /** Whether the project's own code may run (the supervisor's `projectTrust`): settings must not point the server at it otherwise. */
  trusted: boolean;
  /** The server program that will run (absolute). */
  program: string;
}

/** How to run one language server: which files, which roots, which program, which settings. */
export interface LspServerSpec {
  /** Stable id, e.g. `typescript`; also how `status` names it. */
  id: string;
  /** One line for humans, e.g. `TypeScript/JavaScript (typescript-language-server 5.x)`. */
  name: string;
  /** File extension (with the dot, lowercase) → LSP language id. */
  languages: Readonly<Record<string, string>>;
  /**
   * Root markers in priority groups: the nearest directory holding a marker of the first group wins;
   * only when no directory has one is the next group tried (`go.work` before `go.mod`).
   */
  rootMarkers: readonly (readonly string[])[];
  /** The server's program and arguments. */
  server: CommandLine;
  /** How to install the program, for the "binary not found" message. */
  install: string;
  /** `initializationOptions` for `initialize`, computed for the root (e.g. tsserver resolved from it). */
  initializationOptions?: (context: ServerRootContext) => Promise<unknown>;
  /** Answers to `workspace/configuration`, looked up by dotted section (`python.analysis`). */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * For a server that loads the project when it is sent its first file and reports it with
   * `$/progress` (tsserver does, seconds after the didOpen): how long to wait for that report to begin,
   * and at most for it to end, before a cold call answers anyway (saying the answer may be partial).
   */
  projectLoading?: { beginsWithinMs: number; budgetMs: number };
  /** The project's own checker, run from the root for `diagnostics` with `file` `"*"`. */
  checker?: ProjectChecker;
  /**
   * For a server without pull diagnostics whose pushes cannot be matched to a document version: how
   * to ask it for the current diagnostics of an open file (typescript-language-server: tsserver's own
   * diagnostics requests). Answers `undefined` when it cannot.
   */
  pullDiagnostics?: (session: SessionRequests, path: string, signal: AbortSignal) => Promise<Diagnostic[] | undefined>;
  /**
   * How a write learns which other files it affected (see `affected-files.ts`):
   * - `importers`: ask {@link LspServerSpec.importersOf} for the files that import a written one and
   *   pull their diagnostics (tsserver);
   * - `check-progress`: the server diagnoses every affected file by itself and pushes the results, and
   *   each change it is sent runs as one `$/progress` work whose title matches `title` (gopls with
   *   `verboseWorkDoneProgress`): the write waits until those works have ended;
   * - `workspace-stream`: the server reports every re-checked file on a long-running
   *   `workspace/diagnostic` request (pyright in `workspace` mode) and its analysis progress on that
   *   request's token: the write waits until the written versions were reported and the analysis ended.
   */
  affectedFiles?: { kind: "importers" } | { kind: "check-progress"; title: RegExp } | { kind: "workspace-stream" };
  /**
   * The files that import `path` directly (absolute paths), or `undefined` when it cannot be said: for
   * `affectedFiles` `importers` the only source of affected files; for `workspace-stream`, the files
   * opened right after a write so the server re-checks them before the rest of its dependents.
   */
  importersOf?: (session: SessionRequests, path: string, signal: AbortSignal) => Promise<string[] | undefined>;
}
