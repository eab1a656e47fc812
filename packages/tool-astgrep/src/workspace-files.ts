import { isUtf8 } from "node:buffer";
import { closeSync, constants, type Dirent, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { throwIfAborted } from "./abort-error.js";
import { parseGitignore, type GitignoreRules } from "./gitignore-rules.js";
import { errorCodeOf, type SkipLedger, type SkipReason } from "./skip-ledger.js";

/** Directories never entered below the search root (an explicit path inside one is still searched). */
const alwaysSkipped = new Set(["node_modules", ".git"]);

interface IgnoreScope {
  directory: string;
  rules: GitignoreRules;
}

function loadGitignore(directory: string): GitignoreRules | undefined {
  try {
    return parseGitignore(readFileSync(join(directory, ".gitignore"), "utf8"));
  } catch {
    return undefined;
  }
}

function isIgnored(scopes: readonly IgnoreScope[], path: string, isDirectory: boolean): boolean {
  let verdict: boolean | undefined;
  // Deeper .gitignore files override shallower ones, as in git.
  for (const scope of scopes) {
    const outcome = scope.rules.match(relative(scope.directory, path).split(sep).join("/"), isDirectory);
    if (outcome !== undefined) verdict = outcome;
  }
  return verdict === true;
}

/** What the walk reports besides the files: every entry it could not or would not enter, and when to stop. */
export interface WalkOptions {
  skipped: SkipLedger;
  signal?: AbortSignal;
}

/** Entries read between two yields to the event loop, so a huge tree cannot hold the thread (and the budget). */
const entriesPerYield = 1024;

/**
 * Every regular file under `root` that `accept` keeps, honouring `.gitignore` files from `workdir`
 * down, skipping hidden entries, `node_modules` and `.git` below the root, and not following symlinks
 * (the ast-grep CLI's defaults). A root that is a file is returned as is, even when ignored. Entries
 * that cannot be searched — a directory that cannot be read, a pipe, socket or device, a symlink — are
 * counted in `options.skipped` with their reason, never dropped silently.
 *
 * @throws the signal's abort error when it aborts during the walk.
 */
export async function listWorkspaceFiles(workdir: string, root: string, accept: (path: string) => boolean, options: WalkOptions): Promise<string[]> {
  const rootStats = statSync(root);
  if (rootStats.isFile()) return [root];
  if (!rootStats.isDirectory()) {
    options.skipped.add({ path: root, reason: "not_regular" });
    return [];
  }
  // .gitignore files of the directories between the workdir and the root apply too.
  const ancestors: IgnoreScope[] = [];
  if (root !== workdir) {
    for (let directory = dirname(root); ; directory = dirname(directory)) {
      const fromWorkdir = relative(workdir, directory);
      if (fromWorkdir.startsWith("..") || isAbsolute(fromWorkdir)) break;
      const rules = loadGitignore(directory);
      if (rules !== undefined) ancestors.unshift({ directory, rules });
      if (fromWorkdir === "" || dirname(directory) === directory) break;
    }
  }
  const files: string[] = [];
  // Depth-first with an explicit stack (a deep tree must not exhaust the JS stack); each directory
  // carries the .gitignore scopes that apply to it, and subdirectories are visited in name order.
  const pending: Array<{ directory: string; scopes: readonly IgnoreScope[] }> = [{ directory: root, scopes: ancestors }];
  let sinceYield = 0;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { directory } = next;
    const rules = loadGitignore(directory);
    const scopes = rules === undefined ? next.scopes : [...next.scopes, { directory, rules }];
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      options.skipped.add({ path: directory, reason: "unreadable_directory", ...codeOf(error) });
      continue;
    }
    sinceYield += entries.length + 1;
    if (sinceYield >= entriesPerYield) {
      sinceYield = 0;
      await yieldToEventLoop();
      throwIfAborted(options.signal);
    }
    entries.sort((first, second) => (first.name < second.name ? -1 : first.name > second.name ? 1 : 0));
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".") || alwaysSkipped.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnored(scopes, path, true)) subdirectories.push(path);
      } else if (entry.isFile()) {
        if (accept(path) && !isIgnored(scopes, path, false)) files.push(path);
      } else if (!isIgnored(scopes, path, false)) {
        // Symlinks are not followed (a link may leave the workdir or loop); pipes, sockets and devices
        // are never read (opening a FIFO blocks). A link or special file the search would not have
        // read anyway, by its name, is not worth mentioning.
        if (entry.isSymbolicLink()) options.skipped.add({ path, reason: "symlink" });
        else if (accept(path)) options.skipped.add({ path, reason: "not_regular" });
      }
    }
    for (let index = subdirectories.length - 1; index >= 0; index--) pending.push({ directory: subdirectories[index]!, scopes });
  }
  return files;
}

function codeOf(error: unknown): { code?: string } {
  const code = errorCodeOf(error);
  return code === undefined ? {} : { code };
}

/** A file that was not read, and why. */
export interface Unsearchable {
  reason: SkipReason;
  code?: string;
}

// O_NONBLOCK: a file swapped for a FIFO after the walk must not block the open; O_NOFOLLOW: nor may a
// file swapped for a symlink be followed (out of the workdir).
const openFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Read a file for searching: its bytes, or why it is skipped. Over-size files are refused from
 * their size alone; binary (a NUL in the first 8 KB, as git decides) and non-UTF-8 files are refused
 * because napi would skip them silently (research astgrep.md §0.8); anything but a regular file is
 * refused before a byte is read.
 */
export function readSearchableFile(path: string, maxBytes: number): Buffer | Unsearchable {
  let descriptor: number;
  try {
    descriptor = openSync(path, openFlags);
  } catch (error) {
    const code = errorCodeOf(error);
    return { reason: code === "ELOOP" ? "symlink" : "unreadable", ...codeOf(error) };
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return { reason: "not_regular" };
    const size = stats.size;
    if (size > maxBytes) return { reason: "too_large" };
    const buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(descriptor, buffer, offset, size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    const bytes = offset === size ? buffer : buffer.subarray(0, offset);
    if (bytes.subarray(0, 8000).includes(0)) return { reason: "binary" };
    if (!isUtf8(bytes)) return { reason: "not_utf8" };
    return bytes;
  } catch (error) {
    return { reason: "unreadable", ...codeOf(error) };
  } finally {
    closeSync(descriptor);
  }
}
