import { ToolError } from "@runbound/tool-kit";

/** The `code` of a Node file-system error (`ENOENT`, `EACCES`, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Turn a file-system error about one path into a {@link ToolError} with the code a caller can act on
 * and a sentence naming the path, so a refusal the model can fix never reads as "a bug in the tool".
 * A ToolError passes through unchanged; an error without a known errno code becomes `io_error`.
 *
 * @param shown the path as messages name it, e.g. relative to the workdir.
 */
export function fileSystemToolError(error: unknown, shown: string): ToolError {
  if (ToolError.isInstance(error)) return error;
  const name = `\`${shown}\``;
  const detail = error instanceof Error ? error.message : String(error);
  switch (errnoCode(error)) {
    case "ENOENT":
      return new ToolError({
        code: "not_found",
        message: `${name} does not exist. Check the path; it is relative to the working directory.`,
        cause: error,
      });
    case "ENOTDIR":
      return new ToolError({
        code: "invalid_input",
        message: `A part of ${name} is a file, not a directory, so the path cannot exist. Check each directory in the path.`,
        cause: error,
      });
    case "EISDIR":
      return new ToolError({
        code: "invalid_input",
        message: `${name} is a directory, not a file. Give the path of a file inside it.`,
        cause: error,
      });
    case "ELOOP":
      return new ToolError({
        code: "invalid_input",
        message: `${name} goes through a loop of symbolic links (or too many of them). Use the real path of the file.`,
        cause: error,
      });
    case "ENAMETOOLONG":
      return new ToolError({
        code: "invalid_input",
        message: `${name} is too long for the file system (a name has at most 255 bytes, a path 4096). Use a shorter path.`,
        cause: error,
      });
    case "EACCES":
    case "EPERM":
      return new ToolError({
        code: "io_error",
        message: `Permission to use ${name} was refused by the system (${errnoCode(error)}). Nothing was changed; check the file's and its directory's permissions.`,
        cause: error,
      });
    case "ENOSPC":
    case "EDQUOT":
      return new ToolError({
        code: "io_error",
        message: `There is no space left to write ${name}. Nothing was changed; free some disk space, then try again.`,
        cause: error,
      });
    case "EROFS":
      return new ToolError({
        code: "io_error",
        message: `${name} is on a read-only file system. Nothing was changed.`,
        cause: error,
      });
    default:
      return new ToolError({
        code: "io_error",
        message: `Using ${name} failed (${detail}). Nothing was changed; check the path and try again.`,
        cause: error,
      });
  }
}
