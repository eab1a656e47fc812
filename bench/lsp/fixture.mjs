// The project the benchmark queries: this repository's own packages/tool-lsp (src and tsconfig, at
// the same place under tsconfig.base.json) as committed at one commit, extracted into a temporary
// workdir, so a run may write to it and neither uncommitted work nor later commits move its lines.
// node_modules is a link to the repository's, so tsserver loads the real dependency graph (tool-kit,
// runtime-kit, vscode-languageserver-protocol, @types/node).
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The commit the fixture is taken from by default; a fixed one keeps runs comparable over time. */
export const FIXTURE_COMMIT = "6520a93";

/** Create one copy of the fixture; each side of the benchmark gets its own, so neither server sees the other's writes. */
export function createTypescriptFixture(repo, label, commit) {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-bench-lsp-${label}-`)));
  const paths = [
    "tsconfig.base.json",
    "packages/tool-lsp/tsconfig.json",
    "packages/tool-lsp/package.json",
    "packages/tool-lsp/src",
    ":(exclude)packages/tool-lsp/src/__fixtures__",
  ];
  const archive = execFileSync("git", ["archive", "--format=tar", commit, "--", ...paths], {
    cwd: repo,
    maxBuffer: 1 << 28,
  });
  execFileSync("tar", ["-x", "-C", workdir], { input: archive });
  symlinkSync(join(repo, "node_modules"), join(workdir, "node_modules"), "dir");
  return {
    workdir,
    root: join(workdir, "packages/tool-lsp"),
    remove: () => rmSync(workdir, { recursive: true, force: true }),
  };
}
