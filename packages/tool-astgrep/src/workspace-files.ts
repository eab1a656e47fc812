import { isUtf8 } from "node:buffer";
import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { parseGitignore, type GitignoreRules } from "./gitignore-rules.js";

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

/**
 * Every regular file under `root` that `accept` keeps, honouring `.gitignore` files from `workdir`
 * down, skipping hidden entries, `node_modules` and `.git` below the root, and not following symlinks
 * (the ast-grep CLI's defaults). A root that is a file is returned as is, even when ignored.
 */
export function listWorkspaceFiles(workdir: string, root: string, accept: (path: string) => boolean): string[] {
  if (statSync(root).isFile()) return [root];
  const scopes: IgnoreScope[] = [];
  // .gitignore files of the directories between the workdir and the root apply too.
  const ancestors: string[] = [];
  if (root !== workdir) {
    for (let directory = dirname(root); ; directory = dirname(directory)) {
      const fromWorkdir = relative(workdir, directory);
      if (fromWorkdir.startsWith("..") || isAbsolute(fromWorkdir)) break;
      ancestors.unshift(directory);
      if (fromWorkdir === "" || dirname(directory) === directory) break;
    }
  }
  for (const directory of ancestors) {
    const rules = loadGitignore(directory);
    if (rules !== undefined) scopes.push({ directory, rules });
  }
  const files: string[] = [];
  const walk = (directory: string): void => {
    const rules = loadGitignore(directory);
    if (rules !== undefined) scopes.push({ directory, rules });
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      entries = [];
    }
    entries.sort((first, second) => (first.name < second.name ? -1 : first.name > second.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || alwaysSkipped.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnored(scopes, path, true)) walk(path);
      } else if (entry.isFile() && accept(path) && !isIgnored(scopes, path, false)) {
        files.push(path);
      }
    }
    if (rules !== undefined) scopes.pop();
  };
  walk(root);
  return files;
}

/** Why a file was not searched. */
export type SkipReason = "too_large" | "binary" | "not_utf8" | "unreadable";

/**
 * Read a file for searching: its bytes, or why it is skipped. Over-size files are refused from
 * their size alone; binary (a NUL in the first 8 KB, as git decides) and non-UTF-8 files are refused
 * because napi would skip them silently (research astgrep.md §0.8).
 */
export function readSearchableFile(path: string, maxBytes: number): Buffer | SkipReason {
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch {
    return "unreadable";
  }
  try {
    const size = fstatSync(descriptor).size;
    if (size > maxBytes) return "too_large";
    const buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(descriptor, buffer, offset, size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    const bytes = offset === size ? buffer : buffer.subarray(0, offset);
    if (bytes.subarray(0, 8000).includes(0)) return "binary";
    if (!isUtf8(bytes)) return "not_utf8";
    return bytes;
  } catch {
    return "unreadable";
  } finally {
    closeSync(descriptor);
  }
}
