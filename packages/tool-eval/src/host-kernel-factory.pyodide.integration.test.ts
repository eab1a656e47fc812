import { mkdir, mkdtemp, readdir, realpath, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listDescendants } from "@runbound/runtime-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import type { CellOutput, Kernel } from "./kernel.js";
import type { PyodideKernel } from "./pyodide-kernel.js";
import { sealOf } from "./pyodide/snapshot-seal.js";

async function result(kernel: Kernel, code: string): Promise<string> {
  const outputs: CellOutput[] = [];
  await kernel.execute({
    code,
    onOutput: (output) => outputs.push(output),
    callTool: () => Promise.reject(new Error("no tools here")),
  });
  const last = outputs.at(-1);
  return last?.type === "result" ? last.text : JSON.stringify(outputs);
}

describe("the host factory's Pyodide kernels start from a memory snapshot it makes once (real Pyodide)", () => {
  let root: string;
  let snapshots: string;
  let workdir: string;
  let factory: HostKernelFactory;
  const progress: string[] = [];

  // Each start is a fresh kernel (the factory's first, or one after a reset); the previous one is ended.
  async function start(): Promise<PyodideKernel> {
    progress.length = 0;
    await factory.dispose();
    return (await factory.start("python", {
      workdir,
      signal: new AbortController().signal,
      progress: (message) => progress.push(message),
    })) as PyodideKernel;
  }

  async function snapshotFile(): Promise<string> {
    const names = await readdir(snapshots);
    expect(names).toHaveLength(1);
    return join(snapshots, names[0]!);
  }

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "runbound-factory-snapshot-")));
    snapshots = join(root, "cache", "pyodide");
    workdir = join(root, "work");
    await mkdir(workdir);
    factory = createHostKernelFactory({ python: "pyodide", pyodide: { snapshotDirectory: snapshots } });
  });

  afterAll(async () => {
    await factory.dispose();
    expect((await listDescendants(process.pid)).filter((row) => row.state !== "Z")).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  it("makes the snapshot on the first start, saying so, and starts from it", async () => {
    const kernel = await start();
    expect(progress).toEqual([
      "preparing a Pyodide memory snapshot (one time)…",
      "restoring Pyodide from its snapshot",
    ]);
    expect(kernel.startup?.fromSnapshot).toBe(true);
    expect(await result(kernel, "1 + 1")).toBe("2");
  }, 180_000);

  it("starts a later kernel from the same snapshot without making it again", async () => {
    const file = await snapshotFile();
    const written = (await stat(file)).mtimeMs;
    const kernel = await start();
    expect(progress).toEqual(["restoring Pyodide from its snapshot"]);
    expect(kernel.startup?.fromSnapshot).toBe(true);
    expect((await stat(file)).mtimeMs).toBe(written);
  }, 180_000);

  it("loads without a snapshot cut short, deletes it, and makes it again at the next start", async () => {
    const file = await snapshotFile();
    await truncate(file, Math.floor((await stat(file)).size / 2));
    const kernel = await start();
    expect(kernel.startup).toMatchObject({
      fromSnapshot: false,
      snapshotProblem: "it does not end with its seal (it was cut short, or not written by this kernel)",
    });
    expect(progress).toContain(
      "the Pyodide snapshot cannot be used: it does not end with its seal (it was cut short, or not written by this kernel); loading Pyodide without it",
    );
    expect(await result(kernel, "x = 41\nx + 1")).toBe("42");
    expect(await readdir(snapshots)).toEqual([]);
    const next = await start();
    expect(progress[0]).toBe("preparing a Pyodide memory snapshot (one time)…");
    expect(next.startup?.fromSnapshot).toBe(true);
  }, 240_000);

  it("loads without a sealed snapshot Pyodide refuses (another build's memory)", async () => {
    const file = await snapshotFile();
    const foreign = new Uint8Array(1 << 20).fill(7);
    await writeFile(file, Buffer.concat([foreign, sealOf(foreign)]));
    const kernel = await start();
    expect(kernel.startup?.fromSnapshot).toBe(false);
    expect(kernel.startup?.snapshotProblem).toBe("Pyodide refused it (Snapshot has invalid magic number)");
    expect(await result(kernel, "1 + 1")).toBe("2");
    expect(await readdir(snapshots)).toEqual([]);
  }, 240_000);

  it("loads cold, saying why once, when the snapshot folder cannot be made", async () => {
    const blocked = join(root, "a-file");
    await writeFile(blocked, "not a folder");
    const cold = createHostKernelFactory({
      python: "pyodide",
      pyodide: { snapshotDirectory: join(blocked, "pyodide") },
    });
    try {
      const messages: string[] = [];
      const options = {
        workdir,
        signal: new AbortController().signal,
        progress: (message: string) => messages.push(message),
      };
      const kernel = (await cold.start("python", options)) as PyodideKernel;
      expect(kernel.startup?.fromSnapshot).toBe(false);
      expect(messages).toEqual([
        "preparing a Pyodide memory snapshot (one time)…",
        `The Pyodide snapshot folder \`${join(blocked, "pyodide")}\` cannot be made (ENOTDIR: not a directory, mkdir '${join(blocked, "pyodide")}'); give a writable \`snapshotDirectory\`, or \`false\` to load Pyodide without one. Loading Pyodide without a snapshot.`,
        "loading Pyodide",
      ]);
      messages.length = 0;
      await kernel.dispose();
      await cold.start("python", options);
      expect(messages).toEqual(["loading Pyodide"]);
    } finally {
      await cold.dispose();
    }
  }, 240_000);
});
