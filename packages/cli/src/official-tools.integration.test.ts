import { readdirSync, readlinkSync } from "node:fs";
import { mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { binPath, runCli } from "./__fixtures__/run-cli.js";
import { resultTextOf, runSession } from "./__fixtures__/run-session.js";

// The official packages wired into the reference runner: eval and debug work with no flags, vibe mode
// is opt-in, and `status` says why a tool is absent.
let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-official-")));
  await writeFile(join(project, "notes.txt"), "hello\n");
});

/** Live processes whose working directory is `directory` (kernels and workers start in the workdir). */
function processesIn(directory: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === directory;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("eval in the reference runner", () => {
  it("answers a Python cell with no flags, as the quick start says", async () => {
    const { code, stdout, stderr } = await runCli([
      "call",
      "eval",
      '{"code":"1+1","description":"check the python kernel answers"}',
      "-C",
      project,
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // The first cell of a run says which interpreter it started, then the echoed value.
    expect(stdout).toMatch(/^\[started CPython [\d.]+ at [^\]]+\]\n2\n$/);
    // The kernel ended with the run: nothing is left running in the workdir.
    expect(processesIn(project)).toEqual([]);
  });

  it("keeps state across cells of one session and runs JavaScript too", async () => {
    const responses = await runSession(
      project,
      [],
      [
        { id: 1, tool: "eval", input: { code: "x = 20", description: "set a variable in the kernel" } },
        { id: 2, tool: "eval", input: { code: "x * 2 + 2", description: "read the variable back again" } },
        {
          id: 3,
          tool: "eval",
          input: {
            code: "const y = await Promise.resolve(6); y * 7",
            language: "javascript",
            description: "top level await in javascript",
          },
        },
      ],
    );
    expect(resultTextOf(responses[1]!).trim()).toBe("42");
    expect(resultTextOf(responses[2]!).trim().split("\n").at(-1)).toBe("42");
  });

  it("uses the Python kernel --eval-python names, and status says which each language gets", async () => {
    const pyodide = await runCli([
      "call",
      "eval",
      '{"code":"import sys; sys.platform","description":"which platform runs this cell"}',
      "--eval-python",
      "pyodide",
      "-C",
      project,
    ]);
    expect(pyodide.code).toBe(0);
    expect(pyodide.stdout.trim().split("\n").at(-1)).toBe("'emscripten'");
    const status = await runCli(["status", "--eval-python", "pyodide", "-C", project]);
    expect(status.stdout).toMatch(/✓ eval\.kernel_factory: python: pyodide \(/);
    expect(status.stdout).toMatch(/javascript: javascript \(/);
  });
});

describe("ast-grep's grammars in the reference runner", () => {
  // C++, Bash, Rust, C and PHP come from the native engine (a dependency of the CLI), not from packages the
  // CLI installs; status says so.
  it("searches C++ and Bash files with the native engine's grammars, and status says where they come from", async () => {
    await writeFile(join(project, "main.cpp"), "int main() {\n  values.push_back(add(1, 2));\n}\n");
    await writeFile(join(project, "build.sh"), 'set -eu\necho "building"\nmake all\n');
    const cpp = await runCli(["call", "ast_grep", '{"pattern":"$V.push_back($X)","path":"main.cpp"}', "-C", project]);
    expect(cpp.code, cpp.stderr).toBe(0);
    expect(cpp.stdout).toContain("main.cpp:2");
    const bash = await runCli(["call", "ast_grep", '{"pattern":"make $TARGET","language":"bash"}', "-C", project]);
    expect(bash.code, bash.stderr).toBe(0);
    expect(bash.stdout).toContain("build.sh:3");
    const status = await runCli(["status", "-C", project]);
    expect(status.stdout).toContain(
      "built into the native engine (their @ast-grep/lang-* packages without it): rust, c, cpp, php, bash",
    );
  });
});

describe("ast-grep's parse cache in the reference runner", () => {
  it("takes its budget from --parse-cache-mib, which status shows; 0 turns it off; a bad value is named", async () => {
    const chosen = await runCli(["status", "--parse-cache-mib", "64", "-C", project]);
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toMatch(/✓ astgrep\.parser: \d+ grammars — .*; parse cache: 0 files, 0\.0 MiB of 64 MiB;/);
    expect((await runCli(["status", "-C", project])).stdout).toMatch(
      /✓ astgrep\.parser: .*; parse cache: 0 files, 0\.0 MiB of 256 MiB;/,
    );
    expect((await runCli(["status", "--parse-cache-mib=0", "-C", project])).stdout).toMatch(
      /✓ astgrep\.parser: \d+ grammars — .*; parse cache: off; engine: native \(@runbound\/astgrep-engine\)$/m,
    );
    const bad = await runCli(["status", "--parse-cache-mib", "banana", "-C", project]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "runbound: `--parse-cache-mib` is `banana`, not a whole number of mebibytes from 0 to 65536. Give one, as in --parse-cache-mib 512 (0 turns the parse cache off).\n",
    );
    expect(bad.stdout).toBe("");
    expect((await runCli(["mcp", "--help"])).stdout).toContain(
      "--parse-cache-mib <n> memory in MiB for the syntax trees ast_grep and ast_edit keep between",
    );
  });

  it("searches with the cache off as with it on", async () => {
    await writeFile(join(project, "sample.ts"), "export function twice(value: number) {\n  return value * 2;\n}\n");
    const search = '{"pattern":"return $X","path":"sample.ts"}';
    const off = await runCli(["call", "ast_grep", search, "--parse-cache-mib", "0", "-C", project]);
    const on = await runCli(["call", "ast_grep", search, "-C", project]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("sample.ts:2");
    expect(off.stdout).toBe(on.stdout);
  });
});

describe("vibe mode in the reference runner", () => {
  it("keeps the five vibe tools absent without --vibe, and status says how to turn it on", async () => {
    const { stdout } = await runCli(["status", "-C", project]);
    for (const tool of ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"])
      expect(stdout).toMatch(new RegExp(`✗ ${tool} .*missing resource \`vibe\\.roster\``));
    expect(stdout).toContain(
      "✗ vibe.roster: not attached: vibe mode is off. Start runbound with --vibe and --worker-fast <command>",
    );
    const tools = await runCli(["tools", "--format", "json", "-C", project]);
    expect((JSON.parse(tools.stdout) as Array<{ name: string }>).map((tool) => tool.name)).not.toContain("vibe_spawn");
  });

  it("gives a plan caller's worker only read tools: a runbound worker honours the ceiling it inherits", async () => {
    // The worker is runbound itself, listing the tools it would offer its own model.
    const worker = `"${process.execPath}" "${binPath}" tools --format json -C "${project}"`;
    const responses = await runSession(
      project,
      ["--caller", "plan", "--vibe", "--worker-fast", worker],
      [
        { id: 1, tool: "vibe_spawn", input: { brief: "list your tools", label: "tool lister" } },
        { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
      ],
    );
    expect(resultTextOf(responses[0]!)).toContain("worker_id: w1");
    const waited = resultTextOf(responses[1]!);
    expect(waited).toContain("completed");
    const listed = [...waited.matchAll(/"name": ?"([a-z_]+)"/g)].map((match) => match[1]);
    expect(listed).toContain("read");
    expect(listed).toContain("ast_grep");
    for (const writer of ["write", "edit", "eval", "debug", "lsp_rename"]) expect(listed).not.toContain(writer);
    // The same worker under a main caller sees the exec tools: the cap came from the caller, not the worker.
    const asMain = await runSession(
      project,
      ["--vibe", "--worker-fast", worker],
      [
        { id: 1, tool: "vibe_spawn", input: { brief: "list your tools", label: "tool lister" } },
        { id: 2, tool: "vibe_wait", input: { worker_id: "w1", timeout_seconds: 120 } },
      ],
    );
    expect(resultTextOf(asMain[1]!)).toMatch(/"name": ?"eval"/);
    expect(processesIn(project)).toEqual([]);
  });
});
