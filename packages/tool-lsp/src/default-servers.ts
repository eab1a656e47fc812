import { realpath, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { directoriesUpTo, isInside } from "@runbound/runtime-kit";
import { pythonImporters } from "./python-importers.js";
import { pullTsserverDiagnostics, tsserverImporters } from "./tsserver-diagnostics.js";
import type { LspServerSpec, ServerRootContext } from "./server-spec.js";

// tsserver must come from the project's own TypeScript, found from the detected root (a monorepo
// package may pin another version than the repository root); the server's bundled fallback is used
// only when the project has none.
/**
 * The TypeScript the server program itself depends on, when it lies outside the workdir: without a
 * `tsserver.path` typescript-language-server would load the workspace's own `node_modules/typescript`.
 */
async function serversOwnTypeScript(context: ServerRootContext): Promise<string | undefined> {
  try {
    const program = await realpath(context.program);
    const lib = dirname(createRequire(program).resolve("typescript/lib/tsserver.js"));
    return isInside(context.workdir, lib) ? undefined : lib;
  } catch {
    return undefined;
  }
}

async function typescriptOptions(context: ServerRootContext): Promise<unknown> {
  // An untrusted project's own TypeScript is its code too: the server's own one is named instead.
  if (!context.trusted) {
    const own = await serversOwnTypeScript(context);
    return own === undefined
      ? {}
      : { tsserver: { path: own }, preferences: { includeCompletionsForModuleExports: false } };
  }
  for (const directory of directoriesUpTo(context.root, context.workdir)) {
    const lib = join(directory, "node_modules", "typescript", "lib");
    const found = await stat(join(lib, "tsserver.js")).then(
      (stats) => stats.isFile(),
      () => false,
    );
    if (found) return { tsserver: { path: lib }, preferences: { includeCompletionsForModuleExports: false } };
  }
  return {};
}

const typescript: LspServerSpec = {
  id: "typescript",
  name: "TypeScript/JavaScript (typescript-language-server 5.x; 6.x needs Node 22)",
  languages: {
    ".ts": "typescript",
    ".tsx": "typescriptreact",
    ".mts": "typescript",
    ".cts": "typescript",
    ".js": "javascript",
    ".jsx": "javascriptreact",
    ".mjs": "javascript",
    ".cjs": "javascript",
  },
  rootMarkers: [["tsconfig.json", "jsconfig.json", "package.json"]],
  server: { command: "typescript-language-server", args: ["--stdio"] },
  install: "npm install --save-dev typescript-language-server@5 typescript",
  initializationOptions: typescriptOptions,
  // Measured: the "Initializing JS/TS language features" report began 3 s after the first didOpen on a busy 2-core machine.
  projectLoading: { beginsWithinMs: 6_000, budgetMs: 30_000 },
  pullDiagnostics: pullTsserverDiagnostics,
  // tsserver pushes only for open files, but answers for any file of its program and knows who imports whom.
  affectedFiles: { kind: "importers" },
  importersOf: tsserverImporters,
  // `--noEmit` alone still writes a .tsbuildinfo for a composite or incremental project; a read must write nothing.
  checker: {
    command: "tsc",
    args: ["--noEmit", "--pretty", "false", "--composite", "false", "--incremental", "false"],
    format: "tsc",
    needsOneOf: ["tsconfig.json"],
    install: "npm install --save-dev typescript",
  },
};

const python: LspServerSpec = {
  id: "python",
  name: "Python (pyright-langserver)",
  languages: { ".py": "python", ".pyi": "python" },
  rootMarkers: [["pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile"]],
  server: { command: "pyright-langserver", args: ["--stdio"] },
  install: "npm install --save-dev pyright (or pip install pyright into the project's .venv)",
  // `workspace` mode: pyright re-checks every file a change affects (not only open ones) and reports each
  // on the workspace-diagnostics stream, which is how a write learns of the callers it broke.
  settings: { python: { analysis: { diagnosticMode: "workspace", autoSearchPaths: true } } },
  affectedFiles: { kind: "workspace-stream" },
  // pyright checks the files a client has open before the rest, so a write opens the written module's
  // importers (read from their import statements): its callers are reported first, not after every
  // transitive dependent of a core module.
  importersOf: pythonImporters,
  checker: {
    command: "pyright",
    args: ["--outputjson"],
    format: "pyright-json",
    install: "npm install --save-dev pyright (or pip install pyright into the project's .venv)",
  },
};

const go: LspServerSpec = {
  id: "go",
  name: "Go (gopls)",
  languages: { ".go": "go" },
  rootMarkers: [["go.work"], ["go.mod"]],
  server: { command: "gopls", args: ["serve"] },
  // gopls diagnoses every package a change affects by itself and pushes the results; with
  // `verboseWorkDoneProgress` each change runs as one "diagnosing …" progress work, which says when it
  // is done, and with no `diagnosticsDelay` the packages that import a changed one are diagnosed at once.
  initializationOptions: () => Promise.resolve({ verboseWorkDoneProgress: true, diagnosticsDelay: "0s" }),
  affectedFiles: { kind: "check-progress", title: /^diagnosing (?!initial workspace load)/ },
  install: "go install golang.org/x/tools/gopls@latest (v0.23.0 with Go 1.26), and put $(go env GOPATH)/bin on PATH",
  checker: {
    command: "go",
    args: ["vet", "./..."],
    format: "go-vet",
    install: "install Go from https://go.dev/dl and put its bin directory on PATH",
  },
};

const rust: LspServerSpec = {
  id: "rust",
  name: "Rust (rust-analyzer)",
  languages: { ".rs": "rust" },
  rootMarkers: [["Cargo.toml"]],
  server: { command: "rust-analyzer", args: [] },
  install: "rustup component add rust-analyzer",
  checker: {
    command: "cargo",
    args: ["check", "--message-format=json"],
    format: "cargo-json",
    install: "install Rust with rustup (https://rustup.rs)",
  },
};

const cpp: LspServerSpec = {
  id: "cpp",
  name: "C/C++ (clangd)",
  languages: {
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
  },
  rootMarkers: [["compile_commands.json", "compile_flags.txt", ".clangd"]],
  server: { command: "clangd", args: ["--background-index=false"] },
  install: "apt-get install clangd (or your platform's LLVM package)",
};

const dart: LspServerSpec = {
  id: "dart",
  name: "Dart (dart language-server)",
  languages: { ".dart": "dart" },
  rootMarkers: [["pubspec.yaml"]],
  server: { command: "dart", args: ["language-server", "--protocol=lsp"] },
  install: "install the Dart or Flutter SDK and put its bin directory on PATH",
  checker: {
    command: "dart",
    args: ["analyze", "--format=machine"],
    format: "dart-machine",
    install: "install the Dart or Flutter SDK and put its bin directory on PATH",
  },
};

/** The servers a supervisor knows when none are given: TS/JS, Python, Go, Rust, C/C++, Dart. */
export const DEFAULT_SERVERS: readonly LspServerSpec[] = Object.freeze([typescript, python, go, rust, cpp, dart]);
