/** A mistake on the command line; the CLI prints it and exits with {@link EXIT_CODES.usage}. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Exit codes of `runbound`, documented in `--help` and the README. */
export const EXIT_CODES = {
  /** The command succeeded (for `call`: the tool answered without error). */
  ok: 0,
  /** `call`: the tool answered with an error result, also for an unknown tool or an input it rejects (a missing field). */
  toolError: 1,
  /** The command line is wrong and nothing was called: unknown command, option or argument, no tool name, an input that is not a JSON object. */
  usage: 2,
  /** The run could not be opened: the workdir is missing or a plugin failed to load. */
  setup: 3,
} as const;
