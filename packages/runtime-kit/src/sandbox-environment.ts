/**
 * The variables a sandboxed program gets from its resource's environment without being named: what a
 * program needs to find its tools and speak the user's language. Secrets (tokens, keys, credentials)
 * travel only when the host names them (`passEnv`).
 */
export const SANDBOX_ENVIRONMENT_ALLOWLIST: readonly string[] = Object.freeze([
  "PATH",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "TZ",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
]);

/** The sandbox's own home and temporary directory: private, empty at start, gone with the program. */
export const SANDBOX_HOME = "/tmp/home";

/** The environment a sandboxed program gets: the allowlist, the host's `passEnv`, the resource's own variables, a private HOME and TMPDIR. */
export function sandboxEnvironment(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  const passed: NodeJS.ProcessEnv = {};
  for (const name of new Set([...SANDBOX_ENVIRONMENT_ALLOWLIST, ...names])) {
    const value = env[name];
    if (value !== undefined) passed[name] = value;
  }
  return { ...passed, HOME: SANDBOX_HOME, TMPDIR: "/tmp" };
}
