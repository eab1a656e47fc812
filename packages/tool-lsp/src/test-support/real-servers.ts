import { accessSync, constants, cpSync, existsSync, mkdtempSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join } from "node:path";
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

/** The executable `program` in the first absolute entry of this process's PATH that holds one (gopls, clangd: not npm packages). */
export function pathBinary(program: string): string | undefined {
  for (const directory of (process.env["PATH"] ?? "").split(delimiter)) {
    if (!isAbsolute(directory)) continue;
    const candidate = join(directory, program);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * Whether the real programs a suite drives are installed, in `node_modules/.bin` (npm
 * devDependencies) or on PATH (what `.ci/run` installs). Under `RUNBOUND_REQUIRE_REAL=1` (set by
 * `.ci/run`) a missing one throws, so CI fails instead of skipping the suite.
 */
export function realProgramsAvailable(programs: readonly string[]): boolean {
  const missing = programs.filter((program) => devBinary(program) === undefined && pathBinary(program) === undefined);
  if (missing.length > 0 && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(
      `RUNBOUND_REQUIRE_REAL is set but ${missing.map((program) => `\`${program}\``).join(", ")} is neither in node_modules/.bin nor on PATH; run \`npm ci\` at the repository root for the npm packages, and \`.ci/run\` (which installs gopls and clangd and puts them on PATH) for the others.`,
    );
  }
  return missing.length === 0;
}

/** A fresh copy of the fixture project `name` (in `src/__fixtures__`) in a temporary workdir. */
export function copyFixture(name: string): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-lsp-${name}-`)));
  cpSync(join(here, "..", "__fixtures__", name), workdir, { recursive: true });
  return workdir;
}
