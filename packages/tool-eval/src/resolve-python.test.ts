import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePython } from "./resolve-python.js";

function directory(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "runbound-resolve-python-")));
}

function program(path: string, mode = 0o755): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("resolvePython", () => {
  it("takes the project's .venv first, with the version its pyvenv.cfg records", async () => {
    const workdir = directory();
    const path = program(join(workdir, ".venv", "bin", "python"));
    program(join(workdir, "venv", "bin", "python"));
    writeFileSync(
      join(workdir, ".venv", "pyvenv.cfg"),
      "home = /usr/bin\nimplementation_version = 9.9.9\ninclude-system-site-packages = false\nversion=3.12.10\n",
    );
    expect(await resolvePython(workdir, { pathVariable: "" })).toEqual({
      path,
      shown: ".venv/bin/python",
      origin: "project",
      version: "3.12.10",
    });
  });

  it("takes venv/ when there is no .venv, and reads uv's version_info", async () => {
    const workdir = directory();
    const path = program(join(workdir, "venv", "bin", "python"));
    writeFileSync(join(workdir, "venv", "pyvenv.cfg"), "implementation = CPython\nversion_info = 3.13\n");
    expect(await resolvePython(workdir, { pathVariable: "" })).toEqual({
      path,
      shown: "venv/bin/python",
      origin: "project",
      version: "3.13",
    });
  });

  it("has no version when the virtualenv has no pyvenv.cfg", async () => {
    const workdir = directory();
    const path = program(join(workdir, ".venv", "bin", "python"));
    expect(await resolvePython(workdir, { pathVariable: "" })).toStrictEqual({
      path,
      shown: ".venv/bin/python",
      origin: "project",
    });
  });

  it("passes over a virtualenv python that is not executable, or is a directory", async () => {
    const workdir = directory();
    program(join(workdir, ".venv", "bin", "python"), 0o644);
    mkdirSync(join(workdir, "venv", "bin", "python"), { recursive: true });
    const bin = directory();
    const onPath = program(join(bin, "python3"));
    expect(await resolvePython(workdir, { pathVariable: bin })).toEqual({
      path: onPath,
      shown: onPath,
      origin: "path",
    });
  });

  it("searches PATH in order for each candidate in turn, ignoring relative entries", async () => {
    const workdir = directory();
    const first = directory();
    const second = directory();
    program(join(second, "python3"));
    const wanted = program(join(first, "python"));
    program(join(workdir, "python"));
    expect(
      await resolvePython(workdir, {
        candidates: ["python", "python3"],
        pathVariable: ["relative", first, second].join(":"),
      }),
    ).toEqual({ path: wanted, shown: wanted, origin: "path" });
  });

  it("takes a configured absolute interpreter and shows it relative to the workdir when inside it", async () => {
    const workdir = directory();
    const path = program(join(workdir, "tools", "py"));
    expect(await resolvePython(workdir, { candidates: [join(workdir, "missing"), path], pathVariable: "" })).toEqual({
      path,
      shown: "tools/py",
      origin: "candidate",
    });
  });

  it("tries python after python3 by default", async () => {
    const bin = directory();
    const path = program(join(bin, "python"));
    expect(await resolvePython(directory(), { pathVariable: bin })).toEqual({ path, shown: path, origin: "path" });
  });

  it("ignores a relative PATH entry even when it holds a python", async () => {
    const bin = directory();
    program(join(bin, "python3"));
    expect(await resolvePython(directory(), { pathVariable: relative(process.cwd(), bin) })).toBeUndefined();
  });

  it("finds nothing when nothing is there", async () => {
    expect(await resolvePython(directory(), { pathVariable: directory() })).toBeUndefined();
  });
});
