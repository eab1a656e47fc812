import { listProcesses } from "@runbound/runtime-kit/testing";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileTree } from "./file-tree.js";

/** The scripted checker (`src/__fixtures__/fake-checkers/scripted-checker.mjs`). */
export const SCRIPTED_CHECKER = fileURLToPath(
  new URL("../__fixtures__/fake-checkers/scripted-checker.mjs", import.meta.url),
);

/** A fresh empty directory to run a checker in. */
export function checkerDirectory(): string {
  return fileTree([]);
}

/** The pids the `hang` scenario wrote in `directory`, once it has. */
export function hangingPids(directory: string): { checker: number; helper: number } | undefined {
  const file = join(directory, "checker-pids.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { checker: number; helper: number }) : undefined;
}

/** Which of `pids` still run (zombies count as gone: they hold no resources but a table slot). */
export async function stillRunning(pids: readonly number[]): Promise<number[]> {
  const rows = await listProcesses();
  return pids.filter((pid) => rows.some((row) => row.pid === pid && row.state !== "Z"));
}
