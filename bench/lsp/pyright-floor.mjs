// Benchmark (issue 21 §7, the Python p95): how long pyright itself takes to know what a write's answer
// must say — the written file's diagnostics and those of every file that uses the changed name — for
// the agreement run's slowest Python mutations, through a raw client of the same pyright-langserver
// (the tool's program, arguments, settings and client capabilities) on a fresh copy of the project.
// No client can answer sooner than this, so it is the floor of the tool's write latency there.
// Usage (from the repo root): npm run build && node bench/lsp/pyright-floor.mjs
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DocumentDiagnosticRequest } from "vscode-languageserver-protocol";
import { copyProject } from "./agreement-projects.mjs";
import { startRawClient } from "./raw-client.mjs";
import { rawLaunch } from "./sides.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// The agreement run's py-1, py-6 and py-7 on pydantic 2.11.7 (agreement-mutations.mjs finds them by shape).
const cases = [
  {
    id: "py-1-add-parameter",
    file: "pydantic/_internal/_dataclasses.py",
    from: "def is_builtin_dataclass(_cls: type[Any]) -> TypeGuard[type[StandardDataclass]]:",
    to: "def is_builtin_dataclass(_cls: type[Any], bench_extra: int) -> TypeGuard[type[StandardDataclass]]:",
    name: "is_builtin_dataclass",
  },
  {
    id: "py-6-return-type",
    file: "pydantic/_internal/_decorators.py",
    from: "def get_attribute_from_bases(tp: type[Any] | tuple[type[Any], ...], name: str) -> Any:",
    to: "def get_attribute_from_bases(tp: type[Any] | tuple[type[Any], ...], name: str) -> None:",
    name: "get_attribute_from_bases",
  },
  {
    id: "py-7-rename",
    file: "pydantic/_internal/_core_metadata.py",
    from: "class CoreMetadata(",
    to: "class CoreMetadataRenamed(",
    name: "CoreMetadata",
  },
];

const project = copyProject("py");
console.log(
  `pyright floor — ${new Date().toISOString()}; ${project.label}; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
const launch = await rawLaunch(repo, { workdir: project.workdir }, join(project.workdir, cases[0].file));
const client = await startRawClient(launch);
const pull = (uri) => client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
const read = (file) => readFileSync(join(project.workdir, file), "utf8");
try {
  for (const mutation of cases) {
    const path = join(project.workdir, mutation.file);
    const text = read(mutation.file);
    if (!text.includes(mutation.from))
      throw new Error(`${mutation.id}: \`${mutation.file}\` no longer has \`${mutation.from}\`; update the case.`);
    const users = project.files.filter(
      (file) => file !== mutation.file && new RegExp(`\\b${mutation.name}\\b`).test(read(file)),
    );
    const userUris = users.map((file) => pathToFileURL(join(project.workdir, file)).href);
    // Open like the tool does (the users first), and pull everything once so the timed pulls are warm.
    for (const file of users) client.sync(join(project.workdir, file), read(file), "python");
    const uri = client.sync(path, text, "python");
    for (const target of [uri, ...userUris]) await pull(target);
    console.log(`${mutation.id}: ${mutation.file}, used in ${users.length} files (${users.join(", ")})`);
    for (const [label, next] of [
      ["edit", text.replace(mutation.from, mutation.to)],
      ["revert", text],
    ]) {
      const started = performance.now();
      client.sync(path, next, "python");
      await pull(uri);
      const own = performance.now() - started;
      const each = [];
      for (const [index, target] of userUris.entries()) {
        const asked = performance.now();
        const answer = await pull(target);
        each.push(
          `${users[index]} ${(performance.now() - asked).toFixed(0)} ms (${answer.items?.length ?? "?"} diagnostics)`,
        );
      }
      console.log(
        `  ${label}: ${(performance.now() - started).toFixed(0)} ms in all; the written file ${own.toFixed(0)} ms; then ${each.join(", ")}`,
      );
    }
  }
} finally {
  await client.stop();
  project.remove();
}
console.log(
  `load average at the end ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
