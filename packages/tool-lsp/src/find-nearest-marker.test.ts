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
    expect(await findNearestMarker(join(root, "packages/web/src/deep"), root, [["tsconfig.json", "package.json"]])).toEqual({ root: join(root, "packages/web"), marker: "tsconfig.json" });
  });

  it("tries marker groups in order: go.work anywhere above beats a nearer go.mod", async () => {
    const root = tree(["go.work", "svc/go.mod", "svc/main.go"]);
    expect(await findNearestMarker(join(root, "svc"), root, [["go.work"], ["go.mod"]])).toEqual({ root, marker: "go.work" });
    const single = tree(["svc/go.mod", "svc/main.go"]);
    expect(await findNearestMarker(join(single, "svc"), single, [["go.work"], ["go.mod"]])).toEqual({ root: join(single, "svc"), marker: "go.mod" });
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
});
