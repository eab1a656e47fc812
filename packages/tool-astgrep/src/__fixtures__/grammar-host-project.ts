import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A scratch project outside the repository whose node_modules holds only the given @ast-grep packages. */
export interface GrammarHostProject {
  dir: string;
  /** The project's entry script, a path grammars are resolved from. */
  entry: string;
  cleanup(): void;
}

/** Link the repository's installed `@ast-grep/<name>` packages into a new scratch project. */
export function createGrammarHostProject(packageNames: readonly string[]): GrammarHostProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-grammar-host-")));
  const scope = join(dir, "node_modules", "@ast-grep");
  mkdirSync(scope, { recursive: true });
  const require = createRequire(import.meta.url);
  for (const name of packageNames) {
    symlinkSync(dirname(require.resolve(`${name}/package.json`)), join(scope, name.slice("@ast-grep/".length)), "dir");
  }
  const entry = join(dir, "host.js");
  writeFileSync(entry, "");
  return { dir, entry, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
