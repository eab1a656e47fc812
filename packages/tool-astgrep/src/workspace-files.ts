import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { EventLoopSlicer } from "./event-loop-slice.js";
import {
  findGitRepository,
  globalExcludesFile,
  processIgnoreEnvironment,
  type IgnoreEnvironment,
} from "./git-repository.js";
import { parseIgnoreFile, type IgnoreRules } from "./ignore-rules.js";
import { codeFieldOf, type SkipLedger } from "./skip-ledger.js";

/** Directories never entered below the search root (an explicit path inside one is still searched). */
const alwaysSkipped = new Set(["node_modules", ".git"]);

/** The ignore files of one directory; their rules match paths relative to it. */
interface IgnoreScope {
  directory: string;
  dotIgnore?: IgnoreRules;
  gitignore?: IgnoreRules;
}

/** An ignore file outside the tree (`info/exclude`, the global excludes file): rules relative to the work tree. */
interface FixedIgnoreFile {
  directory: string;
  rules: IgnoreRules;
}

function loadIgnoreFile(path: string): IgnoreRules | undefined {
  try {
    return parseIgnoreFile(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function loadScope(directory: string): IgnoreScope | undefined {
  const dotIgnore = loadIgnoreFile(join(directory, ".ignore"));
  const gitignore = loadIgnoreFile(join(directory, ".gitignore"));
  if (dotIgnore === undefined && gitignore === undefined) return undefined;
  return {
    directory,
    ...(dotIgnore === undefined ? {} : { dotIgnore }),
    ...(gitignore === undefined ? {} : { gitignore }),
  };
}

function relativeTo(directory: string, path: string): string {
  return relative(directory, path).split(sep).join("/");
}

/**
 * Whether `path` is ignored, in ripgrep's order of precedence: the `.ignore` files decide first, then
 * the `.gitignore` files, then the repository's `info/exclude`, then the global excludes file; the
 * first source with a rule matching the path (an ignore, or a `!` re-include) settles it. Within the
 * `.ignore` or the `.gitignore` files, the deepest file with a matching rule wins (as in git), and
 * within one file the last matching rule.
 */
function isIgnored(
  scopes: readonly IgnoreScope[],
  fixed: readonly FixedIgnoreFile[],
  path: string,
  isDirectory: boolean,
): boolean {
  for (const source of ["dotIgnore", "gitignore"] as const) {
    let verdict: boolean | undefined;
    for (const scope of scopes) {
      const outcome = scope[source]?.match(relativeTo(scope.directory, path), isDirectory);
      if (outcome !== undefined) verdict = outcome;
    }
    if (verdict !== undefined) return verdict;
  }
  for (const file of fixed) {
    const outcome = file.rules.match(relativeTo(file.directory, path), isDirectory);
    if (outcome !== undefined) return outcome;
  }
  return false;
}

/**
 * An explicitly named directory is searched even when ignored (`path: "node_modules"`). A rule set
 * that ignores it would, as git does, ignore everything inside it too, so such a set does not apply
 * inside it; the other ignore files above it still do.
 */
function withoutRulesIgnoring(scope: IgnoreScope, root: string): IgnoreScope {
  const path = relativeTo(scope.directory, root);
  const keeps = (rules: IgnoreRules | undefined): rules is IgnoreRules =>
    rules !== undefined && rules.match(path, true) !== true;
  return {
    directory: scope.directory,
    ...(keeps(scope.dotIgnore) ? { dotIgnore: scope.dotIgnore } : {}),
    ...(keeps(scope.gitignore) ? { gitignore: scope.gitignore } : {}),
  };
}

function isWithin(directory: string, path: string): boolean {
  const fromDirectory = relative(directory, path);
  return !fromDirectory.startsWith("..") && !isAbsolute(fromDirectory);
}

/** `info/exclude` and the global excludes file of the repository `workdir` is in (none outside a repository, as in git). */
function repositoryIgnoreFiles(
  workdir: string,
  environment: IgnoreEnvironment,
): { top: string; fixed: FixedIgnoreFile[] } {
  const repository = findGitRepository(workdir);
  if (repository === undefined) return { top: workdir, fixed: [] };
  const fixed: FixedIgnoreFile[] = [];
  const exclude = loadIgnoreFile(join(repository.gitDirectory, "info", "exclude"));
  if (exclude !== undefined) fixed.push({ directory: repository.workTree, rules: exclude });
  const globalPath = globalExcludesFile(repository, environment);
  const global = globalPath === undefined ? undefined : loadIgnoreFile(globalPath);
  if (global !== undefined) fixed.push({ directory: repository.workTree, rules: global });
  // .gitignore files from the top of the work tree apply, as in git, even above the workdir.
  return { top: isWithin(repository.workTree, workdir) ? repository.workTree : workdir, fixed };
}

/** What the walk reports besides the files: every entry it could not or would not enter, and when to stop. */
export interface WalkOptions {
  skipped: SkipLedger;
  signal?: AbortSignal;
  /** Where the global excludes file is found; default from `process.env`. */
  environment?: IgnoreEnvironment;
}

/**
 * Every regular file under `root` that `accept` keeps, honouring `.ignore` and `.gitignore` files
 * (from the top of the repository's work tree, or the workdir outside a repository, down), the
 * repository's `info/exclude` and the global excludes file (see {@link isIgnored}), skipping hidden entries, `node_modules` and `.git` below the root, and not following symlinks
 * (the ast-grep CLI's defaults). A root that is a file is returned as is, even when ignored. Entries
 * that cannot be searched — a directory that cannot be read, a pipe, socket or device, a symlink — are
 * counted in `options.skipped` with their reason, never dropped silently.
 *
 * @throws the signal's abort error when it aborts during the walk.
 */
export async function listWorkspaceFiles(
  workdir: string,
  root: string,
  accept: (path: string) => boolean,
  options: WalkOptions,
): Promise<string[]> {
  const rootStats = statSync(root);
  if (rootStats.isFile()) return [root];
  if (!rootStats.isDirectory()) {
    options.skipped.add({ path: root, reason: "not_regular" });
    return [];
  }
  const repositoryFiles = repositoryIgnoreFiles(workdir, options.environment ?? processIgnoreEnvironment());
  // Ignore files of the directories between the top and the root apply too.
  const ancestors: IgnoreScope[] = [];
  if (root !== repositoryFiles.top) {
    for (let directory = dirname(root); isWithin(repositoryFiles.top, directory); directory = dirname(directory)) {
      const scope = loadScope(directory);
      if (scope !== undefined) ancestors.unshift(withoutRulesIgnoring(scope, root));
      if (directory === repositoryFiles.top || dirname(directory) === directory) break;
    }
  }
  const fixed = repositoryFiles.fixed.filter(
    (file) => file.rules.match(relativeTo(file.directory, root), true) !== true,
  );
  const files: string[] = [];
  // Depth-first with an explicit stack (a deep tree must not exhaust the JS stack); each directory
  // carries the .gitignore scopes that apply to it, and subdirectories are visited in name order.
  const pending: Array<{ directory: string; scopes: readonly IgnoreScope[] }> = [
    { directory: root, scopes: ancestors },
  ];
  const slicer = new EventLoopSlicer(options.signal);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { directory } = next;
    const scope = loadScope(directory);
    const scopes = scope === undefined ? next.scopes : [...next.scopes, scope];
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      options.skipped.add({ path: directory, reason: "unreadable_directory", ...codeFieldOf(error) });
      continue;
    }
    // A huge tree must not hold the thread (nor the call's budget).
    await slicer.pause();
    entries.sort((first, second) => (first.name < second.name ? -1 : first.name > second.name ? 1 : 0));
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".") || alwaysSkipped.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnored(scopes, fixed, path, true)) subdirectories.push(path);
      } else if (entry.isFile()) {
        if (accept(path) && !isIgnored(scopes, fixed, path, false)) files.push(path);
      } else if (!isIgnored(scopes, fixed, path, false)) {
        // Symlinks are not followed (a link may leave the workdir or loop); pipes, sockets and devices
        // are never read (opening a FIFO blocks). A link or special file the search would not have
        // read anyway, by its name, is not worth mentioning.
        if (entry.isSymbolicLink()) options.skipped.add({ path, reason: "symlink" });
        else if (accept(path)) options.skipped.add({ path, reason: "not_regular" });
      }
    }
    for (let index = subdirectories.length - 1; index >= 0; index--)
      pending.push({ directory: subdirectories[index]!, scopes });
  }
  return files;
}
