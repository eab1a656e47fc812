import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withRealInterpreters } from "./real-interpreters.js";
import { cachedDebugpyPython, realAdapterAvailable } from "./test-support/real-adapters.js";

const python = cachedDebugpyPython();
const available = realAdapterAvailable("debugpy (cached virtualenv)", python !== undefined);
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = realpathSync(mkdtempSync(join(tmpdir(), "runbound-real-interpreters-")));
  folders.push(made);
  return made;
}

describe.runIf(available)("withRealInterpreters", () => {
  it("replaces a shim outside the project with the interpreter it runs, and keeps the project's own", async () => {
    const shims = folder();
    const shim = join(shims, "python3");
    // A version manager's shim: a script that runs the real interpreter.
    writeFileSync(shim, `#!/bin/sh\nexec "${python}" "$@"\n`);
    chmodSync(shim, 0o755);
    const root = folder();
    mkdirSync(join(root, ".venv", "bin"), { recursive: true });
    const project = join(root, ".venv", "bin", "python");
    const located = { command: shim, args: ["-m", "debugpy.adapter"], detail: "", debuggeePython: project };
    const real = await withRealInterpreters(located, root);
    expect(real.command).not.toBe(shim);
    expect(real.command).toMatch(/python/);
    expect(real.debuggeePython).toBe(project);
    expect(real.args).toEqual(["-m", "debugpy.adapter"]);
  });

  it("keeps a path that cannot be asked", async () => {
    const root = folder();
    const missing = join(folder(), "no-such-python");
    expect((await withRealInterpreters({ command: missing, args: [], detail: "" }, root)).command).toBe(missing);
  });
});
