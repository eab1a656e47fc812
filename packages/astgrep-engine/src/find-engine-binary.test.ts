import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processTriple } from "./engine-triple.js";
import { findEngineBinary, type EngineBinary, type EngineBinaryLookup } from "./find-engine-binary.js";
import { loadEngineBinary } from "./load-astgrep-engine.js";

const ownVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
const buildFromSource =
  "build it from source with cargo (Rust 1.90 or newer, https://rustup.rs): `npm run build -w @runbound/astgrep-engine` in a checkout of the runbound repository";

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "runbound-engine-lookup-"));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A platform package folder as npm installs it: package.json, and the binary unless `binary` is false. */
function fakePackage(triple: string, version: string, binary = true): string {
  const directory = join(scratch, "node_modules", "@runbound", `astgrep-engine-${triple}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, "package.json"),
    JSON.stringify({ name: `@runbound/astgrep-engine-${triple}`, version }),
  );
  if (binary) writeFileSync(join(directory, `astgrep-engine.${triple}.node`), "a binary");
  return directory;
}

/** A checkout's build: the binary alone in packages/astgrep-engine-<triple>/. */
function fakeLocalBuild(triple: string): string {
  const directory = join(scratch, "packages", `astgrep-engine-${triple}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, `astgrep-engine.${triple}.node`), "a binary");
  return directory;
}

function reasonOf(binary: EngineBinary): string {
  if (binary.found) throw new Error(`expected no binary, found ${binary.path}`);
  return binary.reason;
}

/** A lookup over the fakes: `installed` names the packages the resolver finds. */
function lookup(triple: string, installed: Record<string, string> = {}): Partial<EngineBinaryLookup> {
  return {
    triple,
    version: "1.2.3",
    published: ["linux-x64-gnu"],
    resolvePackage: (name) => installed[name],
    localBuildDirectory: (wanted) => join(scratch, "packages", `astgrep-engine-${wanted}`),
  };
}

describe("findEngineBinary: where the binary comes from", () => {
  it("takes the platform package's binary first, even when a local build is there too", () => {
    const installed = fakePackage("linux-x64-gnu", "1.2.3");
    fakeLocalBuild("linux-x64-gnu");
    expect(findEngineBinary(lookup("linux-x64-gnu", { "@runbound/astgrep-engine-linux-x64-gnu": installed }))).toEqual({
      found: true,
      path: join(installed, "astgrep-engine.linux-x64-gnu.node"),
      source: "package",
      triple: "linux-x64-gnu",
    });
  });

  it("asks the resolver for the package of the triple it is given, e.g. musl's", () => {
    const asked: string[] = [];
    findEngineBinary({ ...lookup("linux-x64-musl"), resolvePackage: (name) => (asked.push(name), undefined) });
    expect(asked).toEqual(["@runbound/astgrep-engine-linux-x64-musl"]);
  });

  it("takes a local build when the package is not installed", () => {
    const local = fakeLocalBuild("darwin-arm64");
    expect(findEngineBinary(lookup("darwin-arm64"))).toEqual({
      found: true,
      path: join(local, "astgrep-engine.darwin-arm64.node"),
      source: "local build",
      triple: "darwin-arm64",
    });
  });

  it("takes a local build when the installed package has no binary (a checkout not built yet)", () => {
    const installed = fakePackage("linux-x64-gnu", "1.2.3", false);
    const local = fakeLocalBuild("linux-x64-gnu");
    const found = findEngineBinary(lookup("linux-x64-gnu", { "@runbound/astgrep-engine-linux-x64-gnu": installed }));
    expect(found).toMatchObject({
      found: true,
      source: "local build",
      path: join(local, "astgrep-engine.linux-x64-gnu.node"),
    });
  });

  it("takes a local build over a package of another version", () => {
    const installed = fakePackage("linux-x64-gnu", "1.0.0");
    fakeLocalBuild("linux-x64-gnu");
    const found = findEngineBinary(lookup("linux-x64-gnu", { "@runbound/astgrep-engine-linux-x64-gnu": installed }));
    expect(found).toMatchObject({ found: true, source: "local build" });
  });
});

describe("findEngineBinary: why there is none", () => {
  it("says a published platform's package is not installed, and how to install it", () => {
    expect(findEngineBinary(lookup("linux-x64-gnu"))).toEqual({
      found: false,
      reason:
        "no prebuilt engine for linux-x64-gnu: @runbound/astgrep-engine-linux-x64-gnu is not installed (optional dependency skipped? `npm install --omit=optional` leaves it out, and so can a package-lock.json written on another platform); install it next to @runbound/astgrep-engine with `npm install @runbound/astgrep-engine-linux-x64-gnu@1.2.3`",
      triple: "linux-x64-gnu",
    });
  });

  it("says a named platform's package is not published, and how to build the engine", () => {
    for (const triple of ["linux-x64-musl", "linux-arm64-gnu", "darwin-arm64", "darwin-x64", "win32-x64-msvc"]) {
      expect(findEngineBinary(lookup(triple))).toEqual({
        found: false,
        reason: `no prebuilt engine for ${triple}: @runbound/astgrep-engine-${triple} is not published; ${buildFromSource}`,
        triple,
      });
    }
  });

  it("says which platforms the engine is built for when this one has no package name", () => {
    expect(findEngineBinary(lookup("linux-arm64-musl"))).toEqual({
      found: false,
      reason:
        "no prebuilt engine for linux-arm64-musl: @runbound/astgrep-engine-linux-arm64-musl is not published, and the engine is built from source only for linux-x64-gnu, linux-x64-musl, linux-arm64-gnu, darwin-arm64, darwin-x64, win32-x64-msvc",
      triple: "linux-arm64-musl",
    });
  });

  it("names the installed package's folder when it has no binary", () => {
    const installed = fakePackage("linux-x64-gnu", "1.2.3", false);
    expect(findEngineBinary(lookup("linux-x64-gnu", { "@runbound/astgrep-engine-linux-x64-gnu": installed }))).toEqual({
      found: false,
      reason: `no prebuilt engine for linux-x64-gnu: @runbound/astgrep-engine-linux-x64-gnu (\`${installed}\`) has no astgrep-engine.linux-x64-gnu.node; ${buildFromSource}`,
      triple: "linux-x64-gnu",
    });
  });

  it("refuses a platform package of another version than the engine, naming both", () => {
    const installed = fakePackage("linux-x64-gnu", "1.0.0");
    expect(findEngineBinary(lookup("linux-x64-gnu", { "@runbound/astgrep-engine-linux-x64-gnu": installed }))).toEqual({
      found: false,
      reason:
        "the prebuilt engine for linux-x64-gnu is another version: @runbound/astgrep-engine-linux-x64-gnu is 1.0.0 and @runbound/astgrep-engine 1.2.3; install the same version with `npm install @runbound/astgrep-engine-linux-x64-gnu@1.2.3`",
      triple: "linux-x64-gnu",
    });
  });

  it("reads the version and the published platforms from this package's package.json by default", () => {
    const defaults = { ...lookup("linux-x64-gnu"), version: undefined, published: undefined };
    const published = reasonOf(findEngineBinary(defaults));
    expect(published).toContain(
      "@runbound/astgrep-engine-linux-x64-gnu is not installed (optional dependency skipped?",
    );
    expect(published).toContain(`\`npm install @runbound/astgrep-engine-linux-x64-gnu@${ownVersion}\``);
    expect(reasonOf(findEngineBinary({ ...defaults, triple: "darwin-arm64" }))).toContain(
      "@runbound/astgrep-engine-darwin-arm64 is not published;",
    );
  });
});

// The real thing: this checkout's platform package, found through node_modules as a user's install
// finds it, and its binary loaded.
const realTriple = processTriple();
const realBinary = findEngineBinary();
describe.runIf(realTriple === "linux-x64-gnu" && (realBinary.found || process.env["RUNBOUND_REQUIRE_REAL"] === "1"))(
  "findEngineBinary on linux-x64-gnu with the built engine",
  () => {
    it("finds the binary in @runbound/astgrep-engine-linux-x64-gnu and it loads", () => {
      expect(realBinary).toMatchObject({ found: true, source: "package", triple: "linux-x64-gnu" });
      const path = (realBinary as { path: string }).path;
      expect(
        realpathSync(path).endsWith(`${sep}astgrep-engine-linux-x64-gnu${sep}astgrep-engine.linux-x64-gnu.node`),
      ).toBe(true);
      const engine = loadEngineBinary(path);
      expect(typeof engine.TreeStore).toBe("function");
      expect(new engine.TreeStore().size).toBe(0);
    });
  },
);
