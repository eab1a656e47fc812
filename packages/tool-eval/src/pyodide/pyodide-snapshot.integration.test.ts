import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CellOutput } from "../kernel.js";
import { startPyodideKernel, type PyodideKernel } from "../pyodide-kernel.js";
import { preparePyodideSnapshot } from "./pyodide-snapshot.js";

async function result(kernel: PyodideKernel, code: string): Promise<string> {
  const outputs: CellOutput[] = [];
  await kernel.execute({
    code,
    onOutput: (output) => outputs.push(output),
    callTool: () => Promise.reject(new Error("no tools here")),
  });
  const last = outputs.at(-1);
  return last?.type === "result" ? last.text : JSON.stringify(outputs);
}

describe("Pyodide memory snapshots (real Pyodide)", () => {
  let root: string;
  let snapshots: string;
  let workdir: string;
  const kernels: PyodideKernel[] = [];

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "runbound-pyodide-snapshot-")));
    snapshots = join(root, "cache", "pyodide");
    workdir = join(root, "work");
    await mkdir(workdir);
  });

  afterAll(async () => {
    await Promise.all(kernels.map((kernel) => kernel.dispose()));
    await rm(root, { recursive: true, force: true });
  });

  it("writes one snapshot file (creating its folder) and finds it the second time", async () => {
    const signal = new AbortController().signal;
    const path = await preparePyodideSnapshot({ directory: snapshots, signal });
    expect(path.startsWith(`${snapshots}/pyodide-`)).toBe(true);
    expect((await stat(path)).size).toBeGreaterThan(1_000_000);
    const written = (await stat(path)).mtimeMs;
    expect(await preparePyodideSnapshot({ directory: snapshots, signal })).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(written);
    expect(await readdir(snapshots)).toEqual([path.slice(snapshots.length + 1)]);
  }, 180_000);

  it("starts kernels from it that work and do not share the snapshot's random sequence", async () => {
    for (let index = 0; index < 2; index += 1) {
      const kernel = await startPyodideKernel({
        workdir,
        snapshotDirectory: snapshots,
        signal: new AbortController().signal,
      });
      kernels.push(kernel);
      console.info(`pyodide kernel from a snapshot: ${JSON.stringify(kernel.startup)}`);
      expect(kernel.startup?.fromSnapshot).toBe(true);
    }
    const [first, second] = await Promise.all(
      kernels.map((kernel) => result(kernel, "import random, os\nx = 20\n(random.random(), os.getcwd())")),
    );
    expect(first).toContain(`'${workdir}'`);
    expect(first).not.toBe(second);
    expect(await result(kernels[0]!, "x + 1")).toBe("21");
  }, 180_000);

  it("starts cold when the folder holds no snapshot", async () => {
    const empty = join(root, "empty");
    const kernel = await startPyodideKernel({
      workdir,
      snapshotDirectory: empty,
      signal: new AbortController().signal,
    });
    kernels.push(kernel);
    expect(kernel.startup?.fromSnapshot).toBe(false);
    expect(existsSync(empty)).toBe(false);
  }, 180_000);
});
