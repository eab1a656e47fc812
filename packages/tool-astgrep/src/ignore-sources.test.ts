import { execFileSync } from "node:child_process";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./__fixtures__/temp-workspace.js";
import { excludesFileSetting, type IgnoreEnvironment } from "./git-repository.js";
import { SkipLedger } from "./skip-ledger.js";
import { listWorkspaceFiles } from "./workspace-files.js";

let workspaces: TempWorkspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.map((workspace) => workspace.cleanup()));
  workspaces = [];
});

async function temp(files: Record<string, string> = {}): Promise<TempWorkspace> {
  const workspace = await createTempWorkspace(files);
  workspaces.push(workspace);
  return workspace;
}

function git(directory: string, environment: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: directory,
    encoding: "utf8",
    env: { ...environment, PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/** A home directory of its own, so the machine's git configuration never leaks into a test. */
async function isolatedHome(
  files: Record<string, string> = {},
): Promise<{ home: TempWorkspace; environment: IgnoreEnvironment }> {
  const home = await temp(files);
  return { home, environment: { home: home.dir, xdgConfigHome: join(home.dir, ".config") } };
}

async function listed(workdir: string, environment: IgnoreEnvironment, root = workdir): Promise<string[]> {
  const files = await listWorkspaceFiles(workdir, root, () => true, { skipped: new SkipLedger(), environment });
  return files.map((path) => relative(workdir, path)).sort();
}

describe("ignore sources", () => {
  it("`.ignore` files are read, and they take precedence over `.gitignore` (a `!` there re-includes)", async () => {
    const { environment } = await isolatedHome();
    const tree = await temp({
      ".gitignore": "*.gen.ts\n",
      ".ignore": "scratch/\n!keep.gen.ts\n",
      "a.ts": "",
      "b.gen.ts": "",
      "keep.gen.ts": "",
      "scratch/c.ts": "",
    });
    expect(await listed(tree.dir, environment)).toEqual(["a.ts", "keep.gen.ts"]);
  });

  it("a nested .gitignore overrides its parent's, both ways", async () => {
    const { environment } = await isolatedHome();
    const tree = await temp({
      ".gitignore": "*.gen.ts\nlogs/\n",
      "sub/.gitignore": "!keep.gen.ts\nlocal.ts\n",
      "sub/keep.gen.ts": "",
      "sub/other.gen.ts": "",
      "sub/local.ts": "",
      "sub/main.ts": "",
      "local.ts": "",
      "logs/x.ts": "",
    });
    expect(await listed(tree.dir, environment)).toEqual(["local.ts", "sub/keep.gen.ts", "sub/main.ts"]);
  });

  it("`.git/info/exclude` applies inside a git repository, from its work tree", async () => {
    const { environment } = await isolatedHome();
    const tree = await temp({ "a.ts": "", "private/b.ts": "", "src/private/c.ts": "" });
    git(tree.dir, { HOME: environment.home }, "init", "-q");
    await tree.write(".git/info/exclude", "/private/\n");
    expect(await listed(tree.dir, environment)).toEqual(["a.ts", "src/private/c.ts"]);
  });

  it("the global excludes file: `${XDG_CONFIG_HOME}/git/ignore` by default, `core.excludesFile` (with `~/`) when set, the repository's setting first", async () => {
    const { home, environment } = await isolatedHome({
      ".config/git/ignore": "*.xdg.ts\n",
      "my-excludes": "*.mine.ts\n",
      "repo-excludes": "*.repo.ts\n",
    });
    const tree = await temp({ "a.ts": "", "b.xdg.ts": "", "c.mine.ts": "", "d.repo.ts": "" });
    git(tree.dir, { HOME: home.dir }, "init", "-q");
    expect(await listed(tree.dir, environment)).toEqual(["a.ts", "c.mine.ts", "d.repo.ts"]);

    await home.write(".gitconfig", "[user]\n\tname = x\n[core]\n\texcludesFile = ~/my-excludes ; a comment\n");
    expect(await listed(tree.dir, environment)).toEqual(["a.ts", "b.xdg.ts", "d.repo.ts"]);

    git(tree.dir, { HOME: home.dir }, "config", "core.excludesFile", join(home.dir, "repo-excludes"));
    expect(await listed(tree.dir, environment)).toEqual(["a.ts", "b.xdg.ts", "c.mine.ts"]);
  });

  it("outside a git repository neither info/exclude nor the global excludes file applies (as in git)", async () => {
    const { environment } = await isolatedHome({ ".config/git/ignore": "*.ts\n" });
    const tree = await temp({ "a.ts": "" });
    expect(await listed(tree.dir, environment)).toEqual(["a.ts"]);
  });

  it("the .gitignore at the top of the work tree applies to a workdir below it", async () => {
    const { environment } = await isolatedHome();
    const tree = await temp({ ".gitignore": "*.gen.ts\n", "project/a.ts": "", "project/b.gen.ts": "" });
    git(tree.dir, { HOME: environment.home }, "init", "-q");
    expect(await listed(join(tree.dir, "project"), environment)).toEqual(["a.ts"]);
  });

  it("an explicitly named ignored directory is searched, and the other rules above it still apply inside it", async () => {
    const { environment } = await isolatedHome();
    const tree = await temp({
      ".gitignore": "vendor/\n",
      ".ignore": "*.log.ts\n",
      "vendor/lib.ts": "",
      "vendor/debug.log.ts": "",
      "vendor/deep/x.ts": "",
    });
    expect(await listed(tree.dir, environment, join(tree.dir, "vendor"))).toEqual([
      "vendor/deep/x.ts",
      "vendor/lib.ts",
    ]);
  });

  it("agrees with `git ls-files --others --exclude-standard` on a tree using every git source", async () => {
    const { home, environment } = await isolatedHome({ ".config/git/ignore": "*.tmp\n!important.tmp\n" });
    const tree = await temp({
      ".gitignore": "build/\n*.log\n/root-only.ts\n**/generated/**\ndocs/*.md\n",
      "a.ts": "",
      "root-only.ts": "",
      "sub/root-only.ts": "",
      "build/out.ts": "",
      "x.log": "",
      "sub/.gitignore": "!keep.log\n*.ts\n!main.ts\n",
      "sub/keep.log": "",
      "sub/other.log": "",
      "sub/main.ts": "",
      "sub/helper.ts": "",
      "src/generated/g.ts": "",
      "src/real.ts": "",
      "docs/a.md": "",
      "docs/deep/b.md": "",
      "cache.tmp": "",
      "important.tmp": "",
      "excluded/e.ts": "",
      "Mixed.TS": "",
    });
    git(tree.dir, { HOME: home.dir }, "init", "-q");
    await tree.write(".git/info/exclude", "excluded/\n");
    const fromGit = git(
      tree.dir,
      { HOME: home.dir, XDG_CONFIG_HOME: join(home.dir, ".config") },
      "ls-files",
      "--others",
      "--exclude-standard",
    )
      .split("\n")
      .filter((line) => line.length > 0 && !line.split("/").some((part) => part.startsWith(".")))
      .sort();
    expect(fromGit).toContain("sub/keep.log");
    expect(await listed(tree.dir, environment)).toEqual(fromGit);
  });
});

describe("excludesFileSetting", () => {
  it.each([
    ["[core]\n\texcludesFile = /a/b\n", "/a/b"],
    ["[core]\n\texcludesfile=~/x # note\n", "~/x"],
    ['[CORE]\n  ExcludesFile = "/with space/f" ; c\n', "/with space/f"],
    ["[core]\n\texcludesFile = /first\n[core]\n\texcludesFile = /second\n", "/second"],
    ['[core "sub"]\n\texcludesFile = /no\n', undefined],
    ["[user]\n\texcludesFile = /no\n[core]\n\tautocrlf = false\n", undefined],
    ["[core]\n\texcludesFile =\n", ""],
  ])("%j → %j", (text, expected) => {
    expect(excludesFileSetting(text)).toBe(expected);
  });
});
