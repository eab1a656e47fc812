import { cpSync, existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The nearest `node_modules/.bin` above this package that holds `program`, where npm put the devDependencies. */
export function devBinary(program: string): string | undefined {
  for (let directory = here; ; directory = dirname(directory)) {
    const candidate = join(directory, "node_modules", ".bin", program);
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

/**
 * Whether the real programs a suite drives are installed. Under `RUNBOUND_REQUIRE_REAL=1` (set by
 * `.ci/run`) a missing one throws, so CI fails instead of skipping the suite.
 */
export function realProgramsAvailable(programs: readonly string[]): boolean {
  const missing = programs.filter((program) => devBinary(program) === undefined);
  if (missing.length > 0 && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(`RUNBOUND_REQUIRE_REAL is set but ${missing.map((program) => `\`${program}\``).join(", ")} is not installed; run \`npm ci\` at the repository root.`);
  }
  return missing.length === 0;
}

/** A fresh copy of the fixture project `name` (in `src/__fixtures__`) in a temporary workdir. */
export function copyFixture(name: string): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-lsp-${name}-`)));
  cpSync(join(here, "..", "__fixtures__", name), workdir, { recursive: true });
  return workdir;
}
