// Crates from the crate registry, fetched at run time and unpacked into the cache (never committed):
// ast-grep's own crates for their test cases, and the tree-sitter grammar crates they lock.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const crateCache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "runbound", "astgrep-crates");

/** Download and unpack one crate into the cache unless it is there already; its directory. */
export function fetchCrate(name, version) {
  const directory = join(crateCache, `${name}-${version}`);
  if (existsSync(join(directory, "src"))) return directory;
  mkdirSync(crateCache, { recursive: true });
  const archive = join(crateCache, `${name}-${version}.crate`);
  // The registry's download endpoint redirects to its static host; the static address is the fallback
  // where the API host is not reachable.
  const addresses = [
    `https://crates.io/api/v1/crates/${name}/${version}/download`,
    `https://static.crates.io/crates/${name}/${name}-${version}.crate`,
  ];
  const failures = [];
  for (const address of addresses) {
    const download = spawnSync("curl", ["-fsSL", "--retry", "2", "-o", archive, address], { encoding: "utf8" });
    if (download.status === 0) {
      const unpack = spawnSync("tar", ["xzf", archive, "-C", crateCache], { encoding: "utf8" });
      if (unpack.status !== 0) throw new Error(`Unpacking ${archive} failed: ${unpack.stderr}`);
      return directory;
    }
    failures.push(`${address}: ${download.stderr.trim()}`);
  }
  throw new Error(`Could not download crate ${name} ${version}. ${failures.join("; ")}`);
}

/** The version of `name` a crate's Cargo.lock pins. */
export function lockedVersion(crateDirectory, name) {
  const lock = readFileSync(join(crateDirectory, "Cargo.lock"), "utf8");
  const entry = lock.split("[[package]]").find((block) => block.includes(`name = "${name}"\n`));
  const version = entry?.match(/version = "([^"]+)"/)?.[1];
  if (version === undefined) throw new Error(`${crateDirectory}/Cargo.lock pins no ${name}.`);
  return version;
}
