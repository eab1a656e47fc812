import { existsSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createGrammarHostProject, type GrammarHostProject } from "./__fixtures__/grammar-host-project.js";
import { grammarPackageName, packagedGrammars, packagedGrammarsInEngine } from "./grammar-catalog.js";
import {
  grammarSearchPaths,
  loadGrammarPackage,
  readGrammarModule,
  resolveGrammarPackage,
} from "./grammar-packages.js";

let project: GrammarHostProject | undefined;
afterEach(() => {
  project?.cleanup();
  project = undefined;
});

describe("grammar packages", () => {
  it("resolves a grammar from the first search path that has it, and from none that lacks it", () => {
    project = createGrammarHostProject(["@ast-grep/lang-python"]);
    const empty = createGrammarHostProject([]);
    try {
      const found = resolveGrammarPackage("@ast-grep/lang-python", [empty.entry, project.entry]);
      expect(found).toBe(createRequire(import.meta.url).resolve("@ast-grep/lang-python"));
      expect(resolveGrammarPackage("@ast-grep/lang-go", [empty.entry, project.entry])).toBeUndefined();
      expect(resolveGrammarPackage("@ast-grep/lang-python", [empty.entry])).toBeUndefined();
    } finally {
      empty.cleanup();
    }
  });

  it("loads an installed grammar package with a parser library that exists", () => {
    project = createGrammarHostProject(["@ast-grep/lang-go"]);
    const path = resolveGrammarPackage("@ast-grep/lang-go", [project.entry])!;
    const loaded = loadGrammarPackage("@ast-grep/lang-go", path);
    if ("reason" in loaded) throw new Error(loaded.reason);
    expect(loaded.module.extensions).toEqual(["go"]);
    expect(existsSync(loaded.libraryPath)).toBe(true);
  });

  it("says why a module is not a grammar, or why a package did not load", () => {
    expect(readGrammarModule({ extensions: ["py"] }, "The module `x`")).toEqual({
      reason: "The module `x` does not export `libraryPath` and `extensions` as an @ast-grep/lang-* package does.",
    });
    expect(readGrammarModule(undefined, "The module `y`")).toHaveProperty(
      "reason",
      expect.stringContaining("The module `y` does not export"),
    );
    expect(readGrammarModule(null, "The module `z`")).toHaveProperty(
      "reason",
      expect.stringContaining("The module `z` does not export"),
    );
    const helper = createRequire(import.meta.url).resolve("@ast-grep/setup-lang");
    expect(loadGrammarPackage("@ast-grep/setup-lang", helper)).toEqual({
      reason:
        "`@ast-grep/setup-lang` does not export `libraryPath` and `extensions` as an @ast-grep/lang-* package does.",
    });
    const throwing = {
      extensions: ["x"],
      get libraryPath(): string {
        throw new Error("no prebuild for this platform");
      },
    };
    expect(readGrammarModule(throwing, "`@ast-grep/lang-x`")).toEqual({
      reason: "`@ast-grep/lang-x` did not load: no prebuild for this platform",
    });
    const notAPackage = fileURLToPath(new URL("./__fixtures__/does-not-exist.js", import.meta.url));
    expect(loadGrammarPackage("@ast-grep/lang-x", notAPackage)).toHaveProperty(
      "reason",
      expect.stringMatching(/^`@ast-grep\/lang-x` did not load: Cannot find module/),
    );
  });

  it("keeps the setup-lang prebuild log off stdout while reading the library path", () => {
    const logged: unknown[] = [];
    const debug = console.debug;
    const logger = (...values: unknown[]) => logged.push(values);
    console.debug = logger;
    try {
      const module = {
        extensions: ["x"],
        get libraryPath(): string {
          console.debug("found prebuild");
          return "/lib/x.so";
        },
      };
      expect(readGrammarModule(module, "x")).toEqual({ module, libraryPath: "/lib/x.so" });
      expect(logged).toEqual([]);
      expect(console.debug).toBe(logger);
    } finally {
      console.debug = debug;
    }
  });

  it("searches from this package first, then from the program's entry script as given and as its real path", () => {
    const paths = grammarSearchPaths();
    expect(paths[0]).toBe(fileURLToPath(new URL("./grammar-packages.ts", import.meta.url)));
    const entry = process.argv[1]!;
    expect(paths).toContain(entry);
    expect(paths).toContain(realpathSync(entry));
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).not.toContain(process.cwd());
  });

  it("adds a linked entry script's real path, and no entry path when there is no script", () => {
    project = createGrammarHostProject([]);
    const linked = join(project.dir, "linked-host.js");
    symlinkSync(project.entry, linked);
    const argv = process.argv;
    try {
      process.argv = [argv[0]!, linked];
      expect(grammarSearchPaths().slice(1)).toEqual([linked, project.entry]);
      process.argv = [argv[0]!, ""];
      expect(grammarSearchPaths()).toHaveLength(1);
      process.argv = [argv[0]!, join(project.dir, "gone.js")];
      expect(grammarSearchPaths().slice(1)).toEqual([join(project.dir, "gone.js")]);
    } finally {
      process.argv = argv;
    }
  });
});

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifest(relativePath: string): Manifest {
  return JSON.parse(readFileSync(new URL(relativePath, import.meta.url), "utf8")) as Manifest;
}

/** The `@ast-grep/lang-*` entries of a dependency map, sorted by name. */
function grammarEntries(dependencies: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(dependencies ?? {})
    .filter(([name]) => name.startsWith("@ast-grep/lang-"))
    .sort(([left], [right]) => left.localeCompare(right));
}

function versionParts(version: string): number[] {
  const parts = version.split(".").map(Number);
  if (parts.length !== 3 || parts.some((part) => !Number.isInteger(part)))
    throw new Error(`\`${version}\` is not a plain major.minor.patch version.`);
  return parts;
}

function compareVersions(left: string, right: string): number {
  const [a, b] = [versionParts(left), versionParts(right)];
  return a.map((part, index) => part - b[index]!).find((difference) => difference !== 0) ?? 0;
}

/** Whether `version` lies in a range written as the peers are, `>=LOW <HIGH`. */
function satisfiesPeerRange(version: string, range: string): boolean {
  const bounds = /^>=(\S+) <(\S+)$/.exec(range);
  if (bounds === null)
    throw new Error(`The peer range \`${range}\` is not of the form \`>=LOW <HIGH\` this test reads.`);
  return compareVersions(version, bounds[1]!) >= 0 && compareVersions(version, bounds[2]!) < 0;
}

// The grammar catalog, this package's optional peers and its dev dependencies (the versions the
// workspace tests with) are three lists of one set: a grammar added to one alone would be searched
// here but not installable. The CLI installs the common ones of that set (issue 28: its install stays
// small), each at the tested version, but for those the native engine (a CLI dependency) has copies
// of; the others are one `npm install @ast-grep/lang-<id>` away.
const commonGrammars = ["bash", "c", "cpp", "go", "java", "json", "python", "rust", "yaml"];
const cliGrammars = commonGrammars
  .filter((id) => !packagedGrammarsInEngine.includes(id))
  .map((id) => `@ast-grep/lang-${id}`);
describe("the lists of grammar packages", () => {
  const astgrep = manifest("../package.json");
  const cli = manifest("../../cli/package.json");
  const catalog = packagedGrammars
    .map((grammar) => grammarPackageName(grammar.id))
    .sort((left, right) => left.localeCompare(right));

  it("name the same packages: the catalog, the optional peers and the dev dependencies; the CLI's are the common ones", () => {
    expect(new Set(catalog).size).toBe(catalog.length);
    expect(grammarEntries(astgrep.peerDependencies).map(([name]) => name)).toEqual(catalog);
    expect(grammarEntries(astgrep.devDependencies).map(([name]) => name)).toEqual(catalog);
    expect(grammarEntries(cli.dependencies).map(([name]) => name)).toEqual(cliGrammars);
    for (const name of cliGrammars) expect(catalog).toContain(name);
    // The engine's copies are of packaged grammars (their packages serve where the engine does not
    // load), and the CLI brings the engine that has them.
    for (const id of packagedGrammarsInEngine) expect(catalog).toContain(grammarPackageName(id));
    expect(Object.keys(cli.dependencies ?? {})).toContain("@runbound/astgrep-engine");
    expect(Object.keys(astgrep.peerDependenciesMeta ?? {}).sort((left, right) => left.localeCompare(right))).toEqual(
      catalog,
    );
  });

  it("are optional peers, and the CLI installs the version the workspace tests with, inside the peer range", () => {
    const tested = new Map(grammarEntries(astgrep.devDependencies));
    for (const [name, range] of grammarEntries(astgrep.peerDependencies)) {
      expect(astgrep.peerDependenciesMeta?.[name], name).toEqual({ optional: true });
      expect(satisfiesPeerRange(tested.get(name)!, range), `${name}@${tested.get(name)} in ${range}`).toBe(true);
    }
    for (const [name, version] of grammarEntries(cli.dependencies)) expect(version, name).toBe(tested.get(name));
  });

  it("reads peer ranges and versions as npm does for the forms used here", () => {
    expect(satisfiesPeerRange("0.0.6", ">=0.0.6 <0.1.0")).toBe(true);
    expect(satisfiesPeerRange("0.0.10", ">=0.0.9 <0.1.0")).toBe(true);
    expect(satisfiesPeerRange("0.0.5", ">=0.0.6 <0.1.0")).toBe(false);
    expect(satisfiesPeerRange("0.1.0", ">=0.0.6 <0.1.0")).toBe(false);
    expect(() => satisfiesPeerRange("0.0.6", "^0.0.6")).toThrow("is not of the form");
    expect(() => satisfiesPeerRange("latest", ">=0.0.6 <0.1.0")).toThrow("not a plain major.minor.patch");
  });
});
