import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Where ignore files outside the walked tree come from; the defaults are read from `process.env` at call time. */
export interface IgnoreEnvironment {
  /** `$HOME`: `~/.gitconfig`, and `~/` in `core.excludesFile`. */
  home?: string;
  /** `$XDG_CONFIG_HOME`, default `$HOME/.config`: `git/config` and the default global excludes file `git/ignore`. */
  xdgConfigHome?: string;
  /** `$GIT_CONFIG_GLOBAL`: replaces `~/.gitconfig` and the XDG config, as in git. */
  gitConfigGlobal?: string;
}

/** The git repository a directory is in: its work tree and its (common) git directory. */
export interface GitRepository {
  workTree: string;
  gitDirectory: string;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function kindOf(path: string): "directory" | "file" | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The repository `directory` belongs to: the nearest `.git` above it (a directory, or a worktree's
 * `gitdir:` file, whose `commondir` holds `info/exclude`), or `undefined` outside any repository.
 */
export function findGitRepository(directory: string): GitRepository | undefined {
  for (let current = directory; ; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const kind = kindOf(dotGit);
    if (kind === "directory") return { workTree: current, gitDirectory: dotGit };
    if (kind === "file") {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "")?.[1];
      if (pointer !== undefined) {
        const gitDirectory = resolve(current, pointer);
        const common = readText(join(gitDirectory, "commondir"))?.trim();
        return {
          workTree: current,
          gitDirectory: common === undefined || common === "" ? gitDirectory : resolve(gitDirectory, common),
        };
      }
    }
    if (dirname(current) === current) return undefined;
  }
}

/** The value of `core.excludesFile` in one config file's text (the last one wins), or `undefined`. */
export function excludesFileSetting(text: string): string | undefined {
  let inCore = false;
  let value: string | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
    if (section !== null) {
      // `[core "x"]` is a subsection, not `[core]`.
      inCore = section[1]!.toLowerCase() === "core" && !line.includes('"');
      continue;
    }
    if (!inCore) continue;
    const entry = /^excludesfile\s*=\s*(.*)$/i.exec(line);
    if (entry === null) continue;
    let raw = entry[1]!;
    if (raw.startsWith('"')) {
      const close = raw.indexOf('"', 1);
      raw = close === -1 ? raw.slice(1) : raw.slice(1, close);
    } else {
      raw = raw.replace(/\s[#;].*$/, "").trim();
    }
    value = raw.replace(/\\(.)/g, "$1");
  }
  return value;
}

/**
 * The global excludes file git would use for `repository`: `core.excludesFile` from the repository's
 * config, else the global config (`$GIT_CONFIG_GLOBAL`, or `~/.gitconfig` then
 * `$XDG_CONFIG_HOME/git/config`), else the system config `/etc/gitconfig`; without the setting,
 * `${XDG_CONFIG_HOME:-~/.config}/git/ignore`. The config files are read directly (no `git` process):
 * `[include]` and `[includeIf]` are not followed.
 */
export function globalExcludesFile(repository: GitRepository, environment: IgnoreEnvironment): string | undefined {
  const home = environment.home;
  const xdg = environment.xdgConfigHome ?? (home === undefined ? undefined : join(home, ".config"));
  const globalConfigs =
    environment.gitConfigGlobal !== undefined
      ? [environment.gitConfigGlobal]
      : [home && join(home, ".gitconfig"), xdg && join(xdg, "git/config")];
  const configs = [join(repository.gitDirectory, "config"), ...globalConfigs, "/etc/gitconfig"];
  for (const config of configs) {
    if (config === undefined || config === "") continue;
    const setting = excludesFileSetting(readText(config) ?? "");
    if (setting === undefined) continue;
    if (setting === "") return undefined;
    if (setting.startsWith("~/")) return home === undefined ? undefined : join(home, setting.slice(2));
    return isAbsolute(setting) ? setting : resolve(repository.workTree, setting);
  }
  return xdg === undefined ? undefined : join(xdg, "git/ignore");
}

/** The environment the walk reads, from `process.env` (at call time, never at import). */
export function processIgnoreEnvironment(): IgnoreEnvironment {
  const { HOME: home, XDG_CONFIG_HOME: xdgConfigHome, GIT_CONFIG_GLOBAL: gitConfigGlobal } = process.env;
  return {
    ...(home === undefined || home === "" ? {} : { home }),
    ...(xdgConfigHome === undefined || xdgConfigHome === "" ? {} : { xdgConfigHome }),
    ...(gitConfigGlobal === undefined || gitConfigGlobal === "" ? {} : { gitConfigGlobal }),
  };
}
