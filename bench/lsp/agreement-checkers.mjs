// The ground truth: each project's own checker, run to completion over the whole project, parsed into
// (file, line, message) findings with workdir-relative paths — the same shape the write answer's rows
// have, so the two can be compared.
import { execFile } from "node:child_process";
import { dirname, isAbsolute, join, relative } from "node:path";

/** Run a checker; its exit code is ignored (non-zero is how checkers say "found errors"). */
function output(command, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GOFLAGS: "-mod=mod" } },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") reject(error);
        else resolve({ stdout, stderr });
      },
    );
  });
}

const firstLine = (message) => message.split("\n")[0].trim();
const relativeTo = (root, file) => (isAbsolute(file) ? relative(root, file) : file.replace(/^\.\//, ""));

/** `tsc --noEmit`: `file(line,col): error TS1234: message` (continuation lines are indented). */
async function typescript(root, bin) {
  const { stdout } = await output(
    join(bin, "tsc"),
    ["--noEmit", "--pretty", "false", "--incremental", "false", "-p", "tsconfig.json"],
    root,
  );
  const findings = [];
  for (const line of stdout.split("\n")) {
    const match = /^(.+?)\((\d+),\d+\): (error|warning) TS(\d+): (.*)$/.exec(line);
    if (match !== null)
      findings.push({
        file: relativeTo(root, match[1]),
        line: Number(match[2]),
        severity: match[3],
        code: match[4],
        message: firstLine(match[5]),
      });
  }
  return findings;
}

/** `pyright --outputjson`: errors and warnings (information-level notes are not what a write reports). */
async function python(root, bin) {
  const { stdout } = await output(join(bin, "pyright"), ["--outputjson"], root);
  const report = JSON.parse(stdout);
  return report.generalDiagnostics
    .filter((diagnostic) => diagnostic.severity === "error" || diagnostic.severity === "warning")
    .map((diagnostic) => ({
      file: relativeTo(root, diagnostic.file),
      line: diagnostic.range.start.line + 1,
      severity: diagnostic.severity,
      code: diagnostic.rule ?? "",
      message: firstLine(diagnostic.message),
    }));
}

/** Per root: each package's directory (relative) and the import paths it depends on, tests included. */
const goPackages = new Map();
async function packagesOf(root) {
  if (!goPackages.has(root)) {
    const { stdout } = await output(
      "go",
      ["list", "-e", "-test", "-f", '{{.ImportPath}}|{{.Dir}}|{{join .Deps ","}}', "./..."],
      root,
    );
    goPackages.set(
      root,
      stdout
        .trim()
        .split("\n")
        .map((line) => line.split("|"))
        // A test variant's deps read `pkg [pkg.test]`: the import path is the first word.
        .map(([importPath, directory, deps]) => ({
          importPath: importPath.split(" ")[0],
          directory: relative(root, directory),
          deps: deps.split(",").map((dep) => dep.split(" ")[0]),
        })),
    );
  }
  return goPackages.get(root);
}

/**
 * `go build ./...` (every compile error of the non-test code, up to the compiler's ten per package)
 * plus `go vet ./...` (type errors including the tests' — only the first of a package when vet
 * type-checks it itself — and the analyzers' findings). Both can name the same error in slightly
 * different words: one finding per (file, line). Neither checks a package whose dependency does not
 * compile, nor lists more than ten errors of one (vet: more than one): those packages' directories
 * are returned as unverifiable (what the answer says there can be neither confirmed nor refuted).
 */
async function go(root) {
  const [build, vet] = await Promise.all([
    output("go", ["build", "./..."], root),
    output("go", ["vet", "./..."], root),
  ]);
  const byPlace = new Map();
  const failed = new Set();
  const truncated = new Set();
  for (const line of `${build.stderr}\n${vet.stderr}`.split("\n")) {
    const header = /^# \[?([^\s\]]+)/.exec(line);
    if (header !== null) failed.add(header[1]);
    const match = /^(?:vet: )?(\S+?\.go):(\d+)(?::\d+)?: (.*)$/.exec(line);
    if (match === null) continue;
    const finding = {
      file: relativeTo(root, match[1]),
      line: Number(match[2]),
      severity: "error",
      code: "",
      message: firstLine(match[3]),
    };
    // vet names only the first type error of a package ("vet: file:line:col: …"); the compiler ten.
    if (line.startsWith("vet: ")) truncated.add(dirname(finding.file));
    if (finding.message === "too many errors") {
      truncated.add(dirname(finding.file));
      continue;
    }
    byPlace.set(`${finding.file}:${finding.line}`, byPlace.get(`${finding.file}:${finding.line}`) ?? finding);
  }
  const unverifiable = new Set(truncated);
  for (const pkg of await packagesOf(root))
    if (pkg.deps.some((dep) => failed.has(dep))) unverifiable.add(pkg.directory === "" ? "." : pkg.directory);
  return { findings: [...byPlace.values()], unverifiable };
}

/**
 * Run `language`'s checker over `root`; `bin` is the repository's node_modules/.bin. @returns its
 * findings and the directories it could not fully check (Go only).
 */
export async function runChecker(language, root, bin) {
  if (language === "go") return go(root);
  return { findings: await (language === "ts" ? typescript(root, bin) : python(root, bin)), unverifiable: new Set() };
}

/** The checker's command line, for the report. */
export const CHECKER_COMMANDS = {
  ts: "tsc --noEmit --pretty false --incremental false -p tsconfig.json (TypeScript from the repo's node_modules/.bin)",
  py: "pyright --outputjson (the repo's node_modules/.bin; errors and warnings)",
  go: "go build ./... + go vet ./... (one finding per file:line)",
};

/** `findings` minus `base`, as multisets keyed by (file, line, message). */
export function subtractFindings(findings, base) {
  const left = new Map();
  for (const finding of base) {
    const key = `${finding.file}\0${finding.line}\0${finding.message}`;
    left.set(key, (left.get(key) ?? 0) + 1);
  }
  return findings.filter((finding) => {
    const key = `${finding.file}\0${finding.line}\0${finding.message}`;
    const count = left.get(key) ?? 0;
    if (count === 0) return true;
    left.set(key, count - 1);
    return false;
  });
}
