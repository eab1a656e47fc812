import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LspServerSpec } from "../server-spec.js";

const script = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "__fixtures__",
  "fake-servers",
  "scripted-server.mjs",
);

/** A server table entry that runs the scripted fake server in `scenario` for `.fake` files under a `fake.json`. */
export function scriptedServer(scenario: string): LspServerSpec {
  return {
    id: "fake",
    name: "scripted fake server",
    languages: { ".fake": "fake" },
    rootMarkers: [["fake.json"]],
    server: { command: process.execPath, args: [script, scenario] },
    install: "nothing to install (a test fixture)",
  };
}

/** A temporary workdir with `project/fake.json` and `project/main.fake`; returns the workdir and the file. */
export function fakeProject(): { workdir: string; file: string } {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-fake-")));
  mkdirSync(join(workdir, "project"));
  writeFileSync(join(workdir, "project", "fake.json"), "{}\n");
  writeFileSync(join(workdir, "project", "main.fake"), "answer = 42\nprint(answer)\n");
  return { workdir, file: "project/main.fake" };
}

/** The members of a process group that still run (zombies waiting for their parent's reaper excluded). */
export async function living(pgid: number): Promise<string[]> {
  return (await listProcessGroup(pgid)).filter((row) => row.state !== "Z").map((row) => `${row.pid} ${row.command}`);
}
