import { realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { errnoCode, fileSystemToolError } from "./file-system-error.js";
import { shortenForMessage, ToolError } from "@runbound/tool-kit";

/** Whether `candidate` is `root` or below it (both absolute). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function realpathOfLongestExistingPrefix(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      const parent = resolve(current, "..");
      if (parent === current) return path;
      missing.push(relative(parent, current));
      current = parent;
    }
  }
}

// Linux's PATH_MAX and NAME_MAX, in bytes. A longer path cannot be opened whole, and building it one
// directory at a time would leave thousands of directories behind before failing.
const longestPathBytes = 4096;
const longestNameBytes = 255;

function tooLong(absolute: string): boolean {
  return (
    Buffer.byteLength(absolute) >= longestPathBytes ||
    absolute.split(sep).some((name) => Buffer.byteLength(name) > longestNameBytes)
  );
}

function outside(path: string, workdir: string): ToolError {
  return new ToolError({
    code: "outside_workdir",
    message: `Path \`${shortened(path)}\` resolves outside the working directory \`${workdir}\`. Use a path inside it, relative to it or absolute.`,
  });
}

/**
 * Resolve a path argument inside the run's working directory: relative paths are taken from the
 * workdir, `..` and absolute paths are allowed only while they stay inside, and symlinks are followed
 * (a link that leaves the workdir is refused). The file need not exist.
 *
 * Resolving is not enough to write safely: the path can change before it is used. Read and write
 * through {@link readFileInWorkdir} and {@link writeFilesAtomically}, which confine it again then.
 *
 * @returns the absolute, symlink-free path.
 * @throws ToolError `outside_workdir`; `invalid_input` for an empty path, one with a NUL byte, a symlink
 * loop or a name too long; `io_error` when a directory on the way may not be searched.
 */
export async function resolveInWorkdir(workdir: string, path: string): Promise<string> {
  if (typeof path !== "string" || path.length === 0 || path.includes("\0")) {
    throw new ToolError({
      code: "invalid_input",
      message: `Path \`${String(path)}\` is not valid. Give a non-empty path without NUL bytes.`,
    });
  }
  const root = await realpath(workdir);
  const lexical = resolve(root, path);
  if (tooLong(lexical))
    throw fileSystemToolError(Object.assign(new Error("ENAMETOOLONG"), { code: "ENAMETOOLONG" }), shortened(path));
  const real = await realpathOfLongestExistingPrefix(lexical).catch((error: unknown) => {
    throw fileSystemToolError(error, shortened(path));
  });
  if (tooLong(real))
    throw fileSystemToolError(Object.assign(new Error("ENAMETOOLONG"), { code: "ENAMETOOLONG" }), shortened(path));
  if (!isInside(root, real)) throw outside(path, root);
  return real;
}

const shortened = (path: string): string => shortenForMessage(path, 200);

/** A path relative to the workdir for messages (`.` for the workdir itself), with `/` separators. */
export function displayPath(workdir: string, absolutePath: string): string {
  const rel = relative(workdir, absolutePath);
  return rel === "" ? "." : rel.split(sep).join("/");
}
