// The TypeScript corpus of issue 11: the sources of effect@3.17.0 and rxjs@7.8.1 from the npm registry,
// fetched once with `npm pack` into a cache outside the checkout (never committed).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const packages = [
  { spec: "effect@3.17.0", tarball: "effect-3.17.0.tgz", into: "effect" },
  { spec: "rxjs@7.8.1", tarball: "rxjs-7.8.1.tgz", into: "rxjs" },
];

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`\`${command} ${args.join(" ")}\` failed in ${cwd}: ${result.stderr.slice(0, 2000)}`);
}

/** The corpus directory (`effect/` and `rxjs/`, each its package's `src`), fetched and unpacked on first use. */
export function effectRxjsCorpus() {
  const cache = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
    "runbound",
    "bench",
    "astgrep-effect-rxjs",
  );
  const corpus = join(cache, "corpus");
  if (existsSync(join(corpus, "effect")) && existsSync(join(corpus, "rxjs"))) return corpus;
  mkdirSync(cache, { recursive: true });
  rmSync(corpus, { recursive: true, force: true });
  for (const { spec, tarball, into } of packages) {
    if (!existsSync(join(cache, tarball))) run("npm", ["pack", spec, "--silent"], cache);
    const unpacked = join(cache, `unpacked-${into}`);
    rmSync(unpacked, { recursive: true, force: true });
    mkdirSync(unpacked);
    run("tar", ["xzf", join(cache, tarball), "-C", unpacked], cache);
    mkdirSync(corpus, { recursive: true });
    renameSync(join(unpacked, "package", "src"), join(corpus, into));
    rmSync(unpacked, { recursive: true, force: true });
  }
  return corpus;
}
