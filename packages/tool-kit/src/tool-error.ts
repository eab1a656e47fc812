const marker = "runbound.tool-kit.error";
const symbol = Symbol.for(marker);

/**
 * Stable, machine-readable error codes. Never reworded; new codes may be added in a minor release.
 * - `invalid_input`: the call's input does not match the tool's schema or makes no sense.
 * - `unknown_tool`: the caller cannot see a tool of that name.
 * - `unavailable`: a required resource or program is missing.
 * - `not_found`: a named thing (file, symbol, edit id) does not exist.
 * - `outside_workdir`: a path resolves outside the run's working directory.
 * - `conflict`: the world changed under the call (a file edited after staging).
 * - `io_error`: a file-system operation failed (permissions, disk full); nothing is half-written.
 * - `timeout`: a budget ran out.
 * - `cancelled`: the caller or the run stopped the call.
 * - `denied`: the approval policy refused the call.
 * - `no_operator`: a human was needed and none is attached.
 * - `invalid_plugin`: a plugin or tool definition breaks the contract.
 * - `internal`: an unexpected failure; a bug to report.
 */
export type ToolErrorCode =
  | "invalid_input"
  | "unknown_tool"
  | "unavailable"
  | "not_found"
  | "outside_workdir"
  | "conflict"
  | "io_error"
  | "timeout"
  | "cancelled"
  | "denied"
  | "no_operator"
  | "invalid_plugin"
  | "internal";

/** Options for {@link ToolError}. */
export interface ToolErrorOptions {
  /** The stable code. */
  code: ToolErrorCode;
  /** A full sentence: what failed, with which value in backticks, and how to fix it. */
  message: string;
  /** The underlying error, kept for logs. */
  cause?: unknown;
}

/**
 * The one error class of runbound. Tools throw it; hosts turn it into an `isError` result.
 * Recognise it with {@link ToolError.isInstance}, which works across two installed copies of tool-kit.
 */
export class ToolError extends Error {
  private readonly [symbol] = true;
  /** The stable code. */
  readonly code: ToolErrorCode;

  constructor({ code, message, cause }: ToolErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ToolError";
    this.code = code;
  }

  /** Whether `error` is a ToolError from any copy of tool-kit. */
  static isInstance(error: unknown): error is ToolError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as Record<symbol, unknown>)[symbol] === true &&
      typeof (error as { code?: unknown }).code === "string"
    );
  }
}
