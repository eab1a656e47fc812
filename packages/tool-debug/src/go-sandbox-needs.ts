import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { findExecutable, pathDirectories, runToCompletion } from "@runbound/runtime-kit";
import type { LaunchSetupCache } from "./launch-setup-cache.js";
import type { SandboxNeeds } from "./sandbox-needs.js";

interface GoEnvironment {
  GOROOT?: string;
  GOMODCACHE?: string;
}

// `GOTOOLCHAIN=local`: a go.mod naming a newer toolchain must not make a probe download one.
function askGoEnvironment(go: string, root: string, env: NodeJS.ProcessEnv): Promise<GoEnvironment | undefined> {
  return runToCompletion({
    command: go,
    args: ["env", "-json", "GOROOT", "GOMODCACHE"],
    cwd: root,
    env: { ...env, GOTOOLCHAIN: "local" },
    timeoutMs: 10_000,
  }).then(
    (run) => (run.ending === "exited" && run.exit.code === 0 ? (JSON.parse(run.stdout) as GoEnvironment) : undefined),
    () => undefined,
  );
}

/**
 * What a sandboxed dlv needs of the host's Go to build the program it debugs: the toolchain (GOROOT)
 * and the module cache read-only, and a build cache of the project's own, read-write, kept between
 * sessions under the user's cache folder (the host's own GOCACHE is not given: what a debuggee wrote
 * there a later build on the host would trust). Modules are not downloaded in the sandbox
 * (`GOPROXY=off`): a module missing from the cache is the build's error, as `go build` words it.
 * Empty when no `go` is on the environment's PATH (dlv then says so itself).
 */
export async function goSandboxNeeds(
  root: string,
  env: NodeJS.ProcessEnv,
  cache: LaunchSetupCache,
): Promise<SandboxNeeds> {
  const go = await findExecutable(["go"], pathDirectories(env["PATH"]));
  if (go === undefined) return { readOnlyPaths: [], writablePaths: [], env: {} };
  const goEnvironment = await cache.remember(`go env\0${go}\0${root}`, () => askGoEnvironment(go, root, env));
  const cacheHome = env["XDG_CACHE_HOME"] ?? join(env["HOME"] ?? homedir(), ".cache");
  const buildCache = join(
    cacheHome,
    "runbound",
    "debug-go-build",
    createHash("sha256").update(root).digest("hex").slice(0, 16),
  );
  await mkdir(buildCache, { recursive: true });
  const modules = goEnvironment?.GOMODCACHE;
  return {
    readOnlyPaths: [goEnvironment?.GOROOT, modules].filter((path): path is string => path !== undefined && path !== ""),
    writablePaths: [buildCache],
    env: {
      GOCACHE: buildCache,
      ...(modules === undefined || modules === "" ? {} : { GOMODCACHE: modules }),
      GOPROXY: "off",
      GOTOOLCHAIN: "local",
    },
  };
}
