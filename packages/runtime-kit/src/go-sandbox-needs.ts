import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { findExecutable, pathDirectories } from "./find-executable.js";
import { runToCompletion } from "./run-to-completion.js";

/** What a sandboxed program needs of the host besides its own program's folder. */
export interface SandboxNeeds {
  /** Host paths it reads (an interpreter's prefix, a toolchain), bound read-only. */
  readOnlyPaths: string[];
  /** Host folders it writes (a build cache of its own), bound read-write. */
  writablePaths: string[];
  /** Variables it is given (they pass the sandbox's environment allowlist). */
  env: Record<string, string>;
}

interface GoEnvironment {
  GOROOT?: string;
  GOMODCACHE?: string;
}

// Asked once per `go` and root in this process: every sandboxed start would otherwise run it.
const goEnvironments = new Map<string, Promise<GoEnvironment | undefined>>();

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

function goEnvironment(go: string, root: string, env: NodeJS.ProcessEnv): Promise<GoEnvironment | undefined> {
  const key = `${go}\0${root}`;
  let answer = goEnvironments.get(key);
  if (answer === undefined) {
    goEnvironments.set(key, (answer = askGoEnvironment(go, root, env)));
    // A failed probe is asked again next time.
    void answer.then((found) => found === undefined && goEnvironments.delete(key));
  }
  return answer;
}

/**
 * What a sandboxed Go program (dlv building what it debugs, gopls, `go vet`) needs of the host's Go:
 * the toolchain (GOROOT) and the module cache read-only, and a build cache of the project's own,
 * read-write, kept between runs under the user's cache folder in `cacheFolder` (the host's own GOCACHE
 * is not given: what a sandboxed program wrote there a later build on the host would trust). Modules
 * are not downloaded in the sandbox (`GOPROXY=off`): one missing from the cache is the build's error,
 * as `go build` words it. Empty when no `go` is on the environment's PATH (the program then says so).
 */
export async function goSandboxNeeds(root: string, env: NodeJS.ProcessEnv, cacheFolder: string): Promise<SandboxNeeds> {
  const go = await findExecutable(["go"], pathDirectories(env["PATH"]));
  if (go === undefined) return { readOnlyPaths: [], writablePaths: [], env: {} };
  const found = await goEnvironment(go, root, env);
  const cacheHome = env["XDG_CACHE_HOME"] ?? join(env["HOME"] ?? homedir(), ".cache");
  const buildCache = join(
    cacheHome,
    "runbound",
    cacheFolder,
    createHash("sha256").update(root).digest("hex").slice(0, 16),
  );
  await mkdir(buildCache, { recursive: true });
  const modules = found?.GOMODCACHE;
  return {
    readOnlyPaths: [found?.GOROOT, modules].filter((path): path is string => path !== undefined && path !== ""),
    writablePaths: [buildCache],
    env: {
      GOCACHE: buildCache,
      ...(modules === undefined || modules === "" ? {} : { GOMODCACHE: modules }),
      GOPROXY: "off",
      GOTOOLCHAIN: "local",
    },
  };
}
