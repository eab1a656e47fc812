import { isAbsolute, relative } from "node:path";

/**
 * Whether the run trusts the programs of the project it works in. Programs inside the workdir (a
 * checkout's `node_modules/.bin`, `.venv/bin`, a PATH entry pointing into it) are the project's own
 * code: right to run for a project one trusts, but a read-only caller (plan mode) must not run code
 * from a checkout no one vouched for (issue 22, item 9).
 */
export interface ProjectTrust {
  /** Whether programs inside the workdir may be started. */
  trusted: boolean;
  /**
   * How the user of this host trusts the project, as a sentence fragment for messages, e.g. "pass
   * `--trust-project`"; default: how a host does it, with the supervisor setting `projectTrust`.
   */
  howToTrust?: string;
}

/** Trust unless the host said otherwise: a generic runner's own project (the behaviour before the setting). */
export const TRUSTED_PROJECT: ProjectTrust = { trusted: true };

/** The way to trust, for messages. */
export function howToTrust(trust: ProjectTrust): string {
  return trust.howToTrust ?? "create the language-server supervisor with `projectTrust: { trusted: true }`";
}

/** Whether `path` (absolute) is `workdir` or inside it. */
export function isInsideWorkdir(path: string, workdir: string): boolean {
  const fromWorkdir = relative(workdir, path);
  return fromWorkdir === "" || (!fromWorkdir.startsWith("..") && !isAbsolute(fromWorkdir));
}

/** The project programs that were passed over, and what to do, as one sentence without the final period. */
export function describeUntrusted(
  paths: readonly string[],
  trust: ProjectTrust,
  shown: (path: string) => string,
): string {
  const listed = paths.map((path) => `\`${shown(path)}\``).join(", ");
  return `the project's own ${listed} ${paths.length === 1 ? "was" : "were"} not run: this run does not trust programs from inside the working directory; to use ${paths.length === 1 ? "it" : "them"}, ${howToTrust(trust)}`;
}
