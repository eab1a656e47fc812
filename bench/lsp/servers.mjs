// What the benchmark measures per language server: the fixture project, the three questions (the
// definition's `full` names the file a full answer points to, as opposed to a syntax-only fallback),
// and the breaking edit with the diagnostic code it must produce.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTypescriptFixture } from "./fixture.mjs";
import { createPythonFixture } from "./python-fixture.mjs";

const version = (repo, name) =>
  JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")).version;
const typescriptFile = "packages/tool-lsp/src/lsp-tool.ts";
const pythonFile = "src/benchpkg/main.py";

/** typescript-language-server on this repository's packages/tool-lsp. */
export const TYPESCRIPT_SERVER = {
  id: "typescript",
  program: "typescript-language-server",
  describe: (repo, fixtureCommit) => ({
    server: `typescript-language-server ${version(repo, "typescript-language-server")} (TypeScript ${version(repo, "typescript")})`,
    fixture: `this repository's packages/tool-lsp (src + tsconfig) at ${fixtureCommit}, with the repository's node_modules`,
  }),
  createFixture: (repo, label, fixtureCommit) => createTypescriptFixture(repo, label, fixtureCommit),
  queries: [
    {
      op: "definition",
      file: typescriptFile,
      lineText: "const document = await openDocument(",
      symbol: "openDocument",
      full: "packages/tool-lsp/src/open-document.ts:",
    },
    {
      op: "hover",
      file: typescriptFile,
      lineText: "const position = positionFromSymbol(",
      symbol: "positionFromSymbol",
    },
    {
      op: "references",
      file: typescriptFile,
      lineText: "import { LspSupervisor, type LspSupervisorInstance }",
      symbol: "LspSupervisor",
      occurrence: 1,
    },
  ],
  // Assigning a string to a number: TypeScript error 2322.
  edit: { breakingLine: 'export const benchProbe: number = "not a number";', code: 2322, comment: "//" },
};

/** pyright-langserver on a generated src-layout package. */
export const PYTHON_SERVER = {
  id: "python",
  program: "pyright-langserver",
  describe: (repo) => ({
    server: `pyright ${version(repo, "pyright")}`,
    fixture: "a generated src-layout package (pyproject.toml, 23 modules; `greet` is used in 21 of them)",
  }),
  createFixture: (repo, label) => createPythonFixture(repo, label),
  queries: [
    {
      op: "definition",
      file: pythonFile,
      lineText: 'message = greet("world")',
      symbol: "greet",
      full: "src/benchpkg/greeting.py:",
    },
    { op: "hover", file: pythonFile, lineText: 'return message + report_0("again")', symbol: "report_0" },
    {
      op: "references",
      file: pythonFile,
      lineText: "from benchpkg.greeting import greet",
      symbol: "greet",
      occurrence: 2,
    },
  ],
  edit: { breakingLine: 'bench_probe: int = "not a number"', code: "reportAssignmentType", comment: "#" },
};

/** The servers by id. */
export const SERVERS = { typescript: TYPESCRIPT_SERVER, python: PYTHON_SERVER };
