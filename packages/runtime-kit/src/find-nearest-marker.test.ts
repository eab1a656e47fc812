import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { directoriesUpTo, findNearestMarker } from "./find-nearest-marker.js";

function tree(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-markers-")));
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "");
  }
  return root;
}

describe("findNearestMarker", () => {
  it("takes the nearest directory with a marker, walking up from the file", async () => {
    const root = tree(["package.json", "packages/web/tsconfig.json", "packages/web/src/deep/a.ts"]);
    expect(
      await findNearestMarker(join(root, "packages/web/src/deep"), root, [["tsconfig.json", "package.json"]]),
    ).toEqual({ name: "tsconfig.json", directory: join(root, "packages/web") });
  });

  it("tries marker groups in order: go.work anywhere above beats a nearer go.mod", async () => {
    const root = tree(["go.work", "svc/go.mod", "svc/main.go"]);
    expect(await findNearestMarker(join(root, "svc"), root, [["go.work"], ["go.mod"]])).toEqual({
      name: "go.work",
      directory: root,
    });
    const single = tree(["svc/go.mod", "svc/main.go"]);
    expect(await findNearestMarker(join(single, "svc"), single, [["go.work"], ["go.mod"]])).toEqual({
      name: "go.mod",
      directory: join(single, "svc"),
    });
  });

  it("never falls back to the workdir and never looks above it", async () => {
    const outer = tree(["package.json", "work/loose/notes.ts"]);
    const workdir = join(outer, "work");
    expect(await findNearestMarker(join(workdir, "loose"), workdir, [["package.json"]])).toBeUndefined();
  });

  it("lists the directories from the start up to the workdir, nearest first", () => {
    expect(directoriesUpTo("/w/a/b", "/w")).toEqual(["/w/a/b", "/w/a", "/w"]);
    expect(directoriesUpTo("/w", "/w")).toEqual(["/w"]);
    expect(directoriesUpTo("/elsewhere", "/w")).toEqual([]);
  });

  it("with filesOnly, finds the nearest marker file walking up, markers tried in order per directory", async () => {
    const workdir = tree(["pyproject.toml", "service/setup.py", "service/requirements.txt", "service/src/app.py"]);
    const start = join(workdir, "service", "src");
    expect(await findNearestMarker(start, workdir, [["requirements.txt", "setup.py"]], { filesOnly: true })).toEqual({
      name: "requirements.txt",
      directory: join(workdir, "service"),
    });
    expect(await findNearestMarker(start, workdir, [["pyproject.toml"]], { filesOnly: true })).toEqual({
      name: "pyproject.toml",
      directory: workdir,
    });
  });

  it("with filesOnly, a directory named like a marker is not one (without it, any entry is)", async () => {
    const workdir = tree(["inner/notes.txt"]);
    mkdirSync(join(workdir, "Cargo.toml"));
    expect(await findNearestMarker(workdir, workdir, [["go.mod", "Cargo.toml"]], { filesOnly: true })).toBeUndefined();
    expect(await findNearestMarker(workdir, workdir, [["go.mod", "Cargo.toml"]])).toEqual({
      name: "Cargo.toml",
      directory: workdir,
    });
  });

  it("with filesOnly, never looks above the workdir", async () => {
    const outer = tree(["go.mod", "inner/notes.txt"]);
    expect(await findNearestMarker(outer, join(outer, "inner"), [["go.mod"]], { filesOnly: true })).toBeUndefined();
  });
});
