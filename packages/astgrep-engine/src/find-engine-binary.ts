import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENGINE_TRIPLES, processTriple } from "./engine-triple.js";

/** What {@link findEngineBinary} looks at; each part defaults to this process and this installed package. */
export interface EngineBinaryLookup {
  /** The napi-rs triple of the platform, e.g. `linux-x64-gnu`. Default: the running process's. */
  triple: string;
  /** The version of @runbound/astgrep-engine; its platform package must have the same. Default: this package's. */
  version: string;
  /** The triples whose package is published: those the engine lists in `optionalDependencies`. */
  published: readonly string[];
  /**
   * The directory of an installed package, or `undefined` when it is not installed. Default:
   * `require.resolve("<name>/package.json")` from this package, as Node would find the package.
   */
  resolvePackage(name: string): string | undefined;
  /**
   * Where a build in a runbound checkout writes the binary: the platform package's folder beside
   * this one (`packages/astgrep-engine-<triple>/`), looked at when the package is not installed.
   */
  localBuildDirectory(triple: string): string;
}

/** Where the engine binary for a platform is, or why there is none. */
export type EngineBinary =
  | {
      found: true;
      /** The `.node` file to load. */
      path: string;
      /** `package`: the installed platform package; `local build`: a build in a runbound checkout. */
      source: "package" | "local build";
      triple: string;
    }
  | {
      found: false;
      /** One clause, without a final period, saying what is missing and the way out. */
      reason: string;
      triple: string;
    };

const enginePackage = "@runbound/astgrep-engine";
const buildFromSource =
  "build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): `npm run build -w @runbound/astgrep-engine` in a checkout of the runbound repository";

/** The package that holds the engine binary for `triple`. */
export function platformPackageName(triple: string): string {
  return `${enginePackage}-${triple}`;
}

/** The file name of the engine binary for `triple`, in its package. */
export function engineBinaryFileName(triple: string): string {
  return `astgrep-engine.${triple}.node`;
}

/**
 * Find the engine binary for a platform, the napi-rs way: first in its platform package
 * (`@runbound/astgrep-engine-<triple>`, an optional dependency npm installs only where its `os`,
 * `cpu` and `libc` fit), then in a build in a runbound checkout. Reads no more than a few files.
 */
export function findEngineBinary(lookup: Partial<EngineBinaryLookup> = {}): EngineBinary {
  const triple = lookup.triple ?? processTriple();
  const own = lookup.version === undefined || lookup.published === undefined ? ownManifest() : undefined;
  const wanted = lookup.version ?? own!.version;
  const published = lookup.published ?? own!.published;
  const resolvePackage = lookup.resolvePackage ?? resolveFromHere;
  const localBuildDirectory = lookup.localBuildDirectory ?? besideThisPackage;
  const name = platformPackageName(triple);
  const file = engineBinaryFileName(triple);

  let problem: string | undefined;
  const directory = resolvePackage(name);
  if (directory !== undefined) {
    const installed = packageVersion(directory);
    if (installed !== wanted) {
      problem = `the prebuilt engine for ${triple} is another version: ${name} is ${installed ?? "unversioned"} and ${enginePackage} ${wanted}; install the same version with \`npm install ${name}@${wanted}\``;
    } else if (existsSync(join(directory, file))) {
      return { found: true, path: join(directory, file), source: "package", triple };
    } else {
      problem = `no prebuilt engine for ${triple}: ${name} (\`${directory}\`) has no ${file}; ${buildFromSource}`;
    }
  }
  const local = join(localBuildDirectory(triple), file);
  if (existsSync(local)) return { found: true, path: local, source: "local build", triple };
  if (problem !== undefined) return { found: false, reason: problem, triple };

  if (published.includes(triple)) {
    return {
      found: false,
      reason: `no prebuilt engine for ${triple}: ${name} is not installed (optional dependency skipped? \`npm install --omit=optional\` leaves it out, and so can a package-lock.json written on another platform); install it next to ${enginePackage} with \`npm install ${name}@${wanted}\``,
      triple,
    };
  }
  if (!(ENGINE_TRIPLES as readonly string[]).includes(triple)) {
    return {
      found: false,
      reason: `no prebuilt engine for ${triple}: ${name} is not published, and the engine is built from source only for ${ENGINE_TRIPLES.join(", ")}`,
      triple,
    };
  }
  return {
    found: false,
    reason: `no prebuilt engine for ${triple}: ${name} is not published; ${buildFromSource}`,
    triple,
  };
}

/** This package's version and the triples of the platform packages it lists as optional dependencies. */
function ownManifest(): { version: string; published: string[] } {
  const manifest = createRequire(import.meta.url)("../package.json") as {
    version: string;
    optionalDependencies?: Record<string, string>;
  };
  const published = Object.keys(manifest.optionalDependencies ?? {})
    .filter((name) => name.startsWith(`${enginePackage}-`))
    .map((name) => name.slice(enginePackage.length + 1));
  return { version: manifest.version, published };
}

function resolveFromHere(name: string): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** From dist/ (installed) or src/ (this package's tests), `../../` is the folder holding this package. */
function besideThisPackage(triple: string): string {
  return fileURLToPath(new URL(`../../astgrep-engine-${triple}/`, import.meta.url));
}

function packageVersion(directory: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
