import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRootMarker } from "./find-root-marker.js";

describe("findRootMarker", () => {
  it("finds the nearest marker walking up, markers tried in order per directory", async () => {
    const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-marker-")));
    mkdirSync(join(workdir, "service", "src"), { recursive: true });
    writeFileSync(join(workdir, "pyproject.toml"), "");
    writeFileSync(join(workdir, "service", "setup.py"), "");
    writeFileSync(join(workdir, "service", "requirements.txt"), "");
    expect(await findRootMarker(["requirements.txt", "setup.py"], join(workdir, "service", "src"), workdir)).toEqual({ name: "requirements.txt", directory: join(workdir, "service") });
    expect(await findRootMarker(["pyproject.toml"], join(workdir, "service", "src"), workdir)).toEqual({ name: "pyproject.toml", directory: workdir });
  });

  it("never looks above the workdir, and a directory named like a marker is not one", async () => {
    const outer = realpathSync(mkdtempSync(join(tmpdir(), "runbound-marker-")));
    writeFileSync(join(outer, "go.mod"), "");
    const workdir = join(outer, "inner");
    mkdirSync(join(workdir, "Cargo.toml"), { recursive: true });
    expect(await findRootMarker(["go.mod", "Cargo.toml"], workdir, workdir)).toBeUndefined();
    expect(await findRootMarker(["go.mod"], outer, workdir)).toBeUndefined();
  });
});
