import { existsSync, realpathSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createGrammarHostProject, type GrammarHostProject } from "./__fixtures__/grammar-host-project.js";
import { grammarSearchPaths, loadGrammarPackage, readGrammarModule, resolveGrammarPackage } from "./grammar-packages.js";

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
    expect(readGrammarModule(undefined, "The module `y`")).toHaveProperty("reason", expect.stringContaining("The module `y` does not export"));
    expect(readGrammarModule(null, "The module `z`")).toHaveProperty("reason", expect.stringContaining("The module `z` does not export"));
    const helper = createRequire(import.meta.url).resolve("@ast-grep/setup-lang");
    expect(loadGrammarPackage("@ast-grep/setup-lang", helper)).toEqual({
      reason: "`@ast-grep/setup-lang` does not export `libraryPath` and `extensions` as an @ast-grep/lang-* package does.",
    });
    const throwing = {
      extensions: ["x"],
      get libraryPath(): string {
        throw new Error("no prebuild for this platform");
      },
    };
    expect(readGrammarModule(throwing, "`@ast-grep/lang-x`")).toEqual({ reason: "`@ast-grep/lang-x` did not load: no prebuild for this platform" });
    const notAPackage = fileURLToPath(new URL("./__fixtures__/does-not-exist.js", import.meta.url));
    expect(loadGrammarPackage("@ast-grep/lang-x", notAPackage)).toHaveProperty("reason", expect.stringMatching(/^`@ast-grep\/lang-x` did not load: Cannot find module/));
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
