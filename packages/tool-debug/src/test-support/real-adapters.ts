import { cpSync, existsSync, mkdtempSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listProcesses } from "@runbound/runtime-kit/testing";
import { ADAPTERS } from "../adapter-table.js";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The interpreter of the virtualenv `.ci/install.d/debug.sh` installs debugpy into: its exported
 * `RUNBOUND_DEBUGPY_PYTHON`, else the same default cache path, so the tests find it without CI too.
 */
export function cachedDebugpyPython(): string | undefined {
  const python =
    process.env["RUNBOUND_DEBUGPY_PYTHON"] ??
    join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "runbound", "debugpy-venv", "bin", "python");
  return existsSync(python) ? python : undefined;
}

/**
 * Whether a real program a suite drives is there. Under `RUNBOUND_REQUIRE_REAL=1` (set by `.ci/run`)
 * a missing one throws, so CI fails instead of skipping.
 */
export function realAdapterAvailable(name: string, found: boolean): boolean {
  if (!found && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(
      `RUNBOUND_REQUIRE_REAL is set but \`${name}\` is not installed; run \`.ci/run\`, whose .ci/install.d/debug.sh installs the debug adapters.`,
    );
  }
  return found;
}

/** A fresh copy of the fixture project `name` (in `src/__fixtures__`) in a temporary workdir. */
export function copyFixture(name: string): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-debug-${name}-`)));
  cpSync(join(here, "..", "__fixtures__", name), workdir, { recursive: true });
  return workdir;
}

/** The pids of `pids` that still run (zombies excluded: they run nothing and are reaped by their parent). */
export async function stillRunning(pids: readonly number[]): Promise<number[]> {
  const rows = await listProcesses();
  return rows.filter((row) => pids.includes(row.pid) && row.state !== "Z").map((row) => row.pid);
}

/** The path of a fixture-support file (a fake adapter script). */
export function supportFile(name: string): string {
  return join(here, name);
}

const adapterPrograms: Record<"lldb" | "delve", string> = { lldb: "lldb-dap or lldb-vscode[-NN]", delve: "dlv" };

/** Whether the adapter program of `id` is on PATH, as the supervisor would find it; see {@link realAdapterAvailable}. */
export async function realAdapterOnPath(id: "lldb" | "delve"): Promise<boolean> {
  const located = await ADAPTERS.find((adapter) => adapter.id === id)!.locate({
    root: "/",
    pathVariable: process.env["PATH"],
    debugpyPython: undefined,
    home: homedir(),
  });
  return realAdapterAvailable(adapterPrograms[id], "command" in located);
}
