import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { findProjectRoots, MAX_SEARCHED_DIRECTORIES } from "./find-project-roots.js";
import { fileTree } from "./test-support/file-tree.js";

const tree = (files: readonly string[]): string => fileTree(files, "{}");

async function found(workdir: string, scope = workdir): Promise<string[]> {
  const { roots } = await findProjectRoots(scope, workdir, DEFAULT_SERVERS, new AbortController().signal);
  return roots.map(
    (project) => `${project.spec.id} ${project.root.slice(workdir.length + 1) || "."} ${project.marker}`,
  );
}

describe("findProjectRoots", () => {
  it("finds every root with a checker, shallow first, by the servers' markers; a sub-package's tsconfig beats its package.json", async () => {
    const workdir = tree([
      "package.json",
      "packages/app/package.json",
      "packages/app/tsconfig.json",
      "packages/app/src/deep/index.ts",
      "python/pyproject.toml",
      "tools/vet/go.mod",
      "rust/Cargo.toml",
      "c/compile_commands.json",
      "dart/pubspec.yaml",
    ]);
    expect(await found(workdir)).toEqual([
      "typescript . package.json",
      "dart dart pubspec.yaml",
      "python python pyproject.toml",
      "rust rust Cargo.toml",
      "typescript packages/app tsconfig.json",
      "go tools/vet go.mod",
    ]);
  });

  it("skips dependencies, build output, environments and VCS data, and does not follow symbolic links", async () => {
    const workdir = tree([
      "app/tsconfig.json",
      "node_modules/dep/package.json",
      "app/node_modules/dep/package.json",
      ".git/modules/x/package.json",
      ".venv/lib/pyproject.toml",
      "venv/lib/setup.py",
      "target/debug/Cargo.toml",
      "dist/package.json",
      "build/package.json",
      "outside/pyproject.toml",
    ]);
    symlinkSync(join(workdir, "outside"), join(workdir, "app", "linked"));
    expect(await found(workdir, join(workdir, "app"))).toEqual(["typescript app tsconfig.json"]);
    expect(await found(workdir)).toEqual(["typescript app tsconfig.json", "python outside pyproject.toml"]);
  });

  it("a go.mod inside a go.work workspace belongs to the workspace", async () => {
    const workdir = tree(["go/go.work", "go/api/go.mod", "go/cli/go.mod", "other/go.mod"]);
    expect(await found(workdir)).toEqual(["go go go.work", "go other go.mod"]);
  });

  it("a scope with no root below it answers the root that contains it; with none above either, nothing", async () => {
    const workdir = tree(["packages/app/tsconfig.json", "packages/app/src/a.ts", "loose/notes.ts"]);
    expect(await found(workdir, join(workdir, "packages/app/src"))).toEqual(["typescript packages/app tsconfig.json"]);
    expect(await found(workdir, join(workdir, "loose"))).toEqual([]);
  });

  it("servers without a checker make no roots", async () => {
    const workdir = tree(["c/compile_commands.json", "c/.clangd"]);
    expect(await found(workdir)).toEqual([]);
  });

  it("reads at most its directory budget and says when it stopped", async () => {
    // The workdir, `wide`, and below it directories up to the budget, the last (by name) holding a marker.
    const workdir = tree(["wide/zz/pyproject.toml"]);
    for (let index = 0; index < MAX_SEARCHED_DIRECTORIES - 3; index++)
      mkdirSync(join(workdir, "wide", `d${String(index).padStart(5, "0")}`));
    const within = await findProjectRoots(workdir, workdir, DEFAULT_SERVERS, new AbortController().signal);
    expect(within).toMatchObject({
      searchCut: false,
      roots: [{ root: join(workdir, "wide", "zz"), marker: "pyproject.toml" }],
    });
    mkdirSync(join(workdir, "wide", "one-more"));
    const over = await findProjectRoots(workdir, workdir, DEFAULT_SERVERS, new AbortController().signal);
    expect(over).toEqual({ searchCut: true, roots: [] });
  }, 60_000);

  it("orders siblings by name, whatever order the file system lists them in", async () => {
    const names = Array.from({ length: 20 }, (_, index) => `p${String(index).padStart(2, "0")}`);
    // Created in a scrambled order (every 7th name). Node's readdir lists names sorted on Linux and
    // macOS today (libuv's scandir), so this pins the promised order rather than proving the sort.
    const workdir = tree(names.map((_, index) => `${names[(index * 7) % names.length]!}/pyproject.toml`));
    expect(await found(workdir)).toEqual(names.map((name) => `python ${name} pyproject.toml`));
  });

  it("a directory named like a marker is not a marker", async () => {
    const workdir = tree(["a/pyproject.toml/inside.txt", "b/tsconfig.json"]);
    expect(await found(workdir)).toEqual(["typescript b tsconfig.json"]);
  });

  it("the root containing the scope is used only when nothing below the scope is a root", async () => {
    const workdir = tree(["pyproject.toml", "packages/a/tsconfig.json"]);
    expect(await found(workdir, join(workdir, "packages"))).toEqual(["typescript packages/a tsconfig.json"]);
    expect(await found(workdir, join(workdir, "packages/a"))).toEqual(["typescript packages/a tsconfig.json"]);
  });

  it("an aborted call stops the search", async () => {
    const controller = new AbortController();
    controller.abort();
    const workdir = tree(["a/package.json"]);
    await expect(findProjectRoots(workdir, workdir, DEFAULT_SERVERS, controller.signal)).rejects.toThrow();
  });
});
