import { mkdir, mkdtemp, readdir, readFile, realpath, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./__fixtures__/run-cli.js";

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), "runbound-cli-")));
  await mkdir(join(project, "src"));
  await writeFile(join(project, "README.md"), "# Demo\nhello\n");
  await writeFile(join(project, "src", "app.ts"), "export function greet(name: string) {\n  console.log(name);\n}\n");
});

describe("runbound CLI", () => {
  it("prints help with the commands and the exit codes", async () => {
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    for (const command of ["status", "tools", "call", "session", "mcp"]) expect(stdout).toContain(command);
    expect(stdout).toContain(
      "Exit codes: 0 ok; 1 the tool answered an error (call), also for an unknown tool or an input the tool\nrejects, such as a missing field; 2 bad command line, nothing was called:",
    );
    expect((await runCli(["call", "--help"])).stdout).toContain("Usage: runbound call <tool>");
  });

  it("calls read on a file of the workdir", async () => {
    const { code, stdout } = await runCli(["call", "read", '{"path":"README.md"}', "--workdir", project]);
    expect(code).toBe(0);
    expect(stdout).toBe("1\t# Demo\n2\thello\n");
  });

  it("reads the input from stdin with -", async () => {
    const { code, stdout } = await runCli(["call", "read", "-", "-C", project], {
      stdin: '{"path":"README.md","limit":1}',
    });
    expect(code).toBe(0);
    expect(stdout).toContain("1\t# Demo");
  });

  it("exits 2 on a non-JSON argument, naming it", async () => {
    const { code, stderr } = await runCli(["call", "read", "{path: README.md}", "-C", project]);
    expect(code).toBe(2);
    expect(stderr).toContain("The input argument is not valid JSON");
    expect(stderr).toContain("`{path: README.md}`");
  });

  it("exits 2 on an unknown command or option", async () => {
    expect((await runCli(["frobnicate"])).stderr).toContain("Unknown command `frobnicate`");
    const unknownOption = await runCli(["tools", "--colour"]);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("--colour");
  });

  it("exits 1 with the tool's error for an unknown tool, a bad field and a path outside the workdir", async () => {
    const unknown = await runCli(["call", "nope", "{}", "-C", project]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain("Unknown tool `nope` for caller `main`. Tools you can call:");
    const mistyped = await runCli(["call", "read", '{"path":3}', "-C", project]);
    expect(mistyped.stdout).toContain("Field `path` must be string, but got 3.");
    const extra = await runCli(["call", "read", '{"path":"README.md","colour":1}', "-C", project]);
    expect(extra.stdout).toContain(
      "Field `colour` is not accepted by `read`; its fields are `path`, `offset`, `limit`.",
    );
    const outside = await runCli(["call", "read", '{"path":"../x"}', "-C", project]);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toContain("Error (outside_workdir): Path `../x` resolves outside the working directory");
  });

  it("lists no write or exec tool for a plan caller, and refuses their calls as unknown", async () => {
    const { code, stdout } = await runCli(["tools", "--caller", "plan", "--format", "json", "-C", project]);
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as Array<{ name: string; tier: string }>;
    expect(tools.map((tool) => tool.name)).toContain("read");
    expect(tools.filter((tool) => tool.tier !== "read")).toEqual([]);
    const write = await runCli(["call", "write", '{"path":"x.txt","content":"x"}', "--caller", "plan", "-C", project]);
    expect(write.code).toBe(1);
    expect(write.stdout).toContain("Unknown tool `write` for caller `plan`");
  });

  it("denies a call that --ask requires approval for, since no one can be asked in the shell", async () => {
    const denied = await runCli([
      "call",
      "write",
      '{"path":"denied.txt","content":"x"}',
      "--ask",
      "write,exec",
      "-C",
      project,
    ]);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toContain(
      "Error (denied): Calling `write` needs approval, and no approver is connected to this run",
    );
    const read = await runCli(["call", "read", '{"path":"README.md","limit":1}', "--ask", "write", "-C", project]);
    expect(read.code).toBe(0);
    const bad = await runCli(["tools", "--ask", "admin", "-C", project]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown tier `admin` in --ask.");
  });

  it("lists one line per tool, name, tier and first sentence, in the text format", async () => {
    const { code, stdout } = await runCli(["tools", "--caller", "plan", "-C", project]);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toContain("read           read  Read a text file inside the working directory.");
    expect(lines.every((line) => /^\S+\s+read\s/.test(line))).toBe(true);
  });

  it("exports openai and anthropic formats", async () => {
    const openai = JSON.parse((await runCli(["tools", "--format", "openai", "-C", project])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(openai.find((tool) => tool["name"] === "edit")).toMatchObject({
      type: "function",
      strict: true,
      parameters: { required: ["path", "old_string", "new_string", "replace_all"] },
    });
    const anthropic = JSON.parse((await runCli(["tools", "--format", "anthropic", "-C", project])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(anthropic.find((tool) => tool["name"] === "read")).toMatchObject({
      input_schema: { type: "object", required: ["path"] },
    });
  });

  it("shows every tool's registration in status", async () => {
    const { code, stdout } = await runCli(["status", "--caller", "plan", "-C", project]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/✓ read\s+read/);
    expect(stdout).toMatch(
      /✗ write\s+write\s+@runbound\/tool-files — tier `write` is above caller `plan`'s ceiling `read`/,
    );
    expect(stdout).toContain("✓ run.workdir");
    expect(stdout).toMatch(/✓ astgrep\.parser: \d+ grammars — built into @ast-grep\/napi: typescript, tsx, javascript/);
  });

  it("keeps one run across session requests and answers bad lines without stopping", async () => {
    const requests = [
      JSON.stringify({
        id: 1,
        tool: "edit",
        input: { path: "src/app.ts", old_string: "console.log(name)", new_string: "console.info(name)" },
      }),
      "not json",
      JSON.stringify({ id: 2, command: "tools" }),
      JSON.stringify({ id: 3, tool: "read", input: { path: "src/app.ts", offset: 2, limit: 1 } }),
    ].join("\n");
    const { code, stdout } = await runCli(["session", "-C", project], { stdin: `${requests}\n` });
    expect(code).toBe(0);
    const responses = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(responses).toHaveLength(4);
    const byId = new Map(responses.map((response) => [response["id"], response]));
    expect(JSON.stringify(byId.get(1))).toContain("Edited `src/app.ts`");
    expect(JSON.stringify(byId.get(3))).toContain("console.info(name)");
    expect((byId.get(2)!["tools"] as unknown[]).length).toBeGreaterThan(3);
    expect(String(byId.get(null)!["error"])).toContain("Line is not valid JSON");
    expect(await readFile(join(project, "src", "app.ts"), "utf8")).toContain("console.info(name)");
  });
});

describe("runbound's command line, one set of rules (issue 12)", () => {
  it("exits as the exit-code table says: 1 for an input the tool rejects, a missing one included; 2 for one that is not an object", async () => {
    const missing = await runCli(["call", "read", "-C", project]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("Field `path` is required");
    const notAnObject = await runCli(["call", "read", "3", "-C", project]);
    expect(notAnObject.code).toBe(2);
    expect(notAnObject.stderr).toBe(
      `runbound: The input argument is a number, not a JSON object: \`3\`. Quote the object for your shell, as in '{"path":"README.md"}'.\n`,
    );
    const list = await runCli(["call", "read", "-", "-C", project], { stdin: '["README.md"]' });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('The input on stdin is an array, not a JSON object: `["README.md"]`.');
  });

  it("refuses an argument a command does not take, naming it, for tools as for call", async () => {
    const tools = await runCli(["tools", "extra", "-C", project]);
    expect(tools).toMatchObject({ code: 2, stdout: "" });
    expect(tools.stderr).toBe(
      "runbound: Unexpected argument `extra`. `runbound tools` takes no arguments. Run `runbound tools --help` for its options.\n",
    );
    const call = await runCli(["call", "read", '{"path":"README.md"}', "extra", "-C", project]);
    expect(call.code).toBe(2);
    expect(call.stderr).toContain(
      "runbound: Unexpected argument `extra`. `runbound call` takes a tool name and one JSON input.",
    );
  });

  it("says in full sentences what is wrong with an option", async () => {
    const unknown = await runCli(["call", "read", "--bogus", "-C", project]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "runbound: Unknown option `--bogus`. Run `runbound --help` for the options; an argument that starts with `-` goes after `--`.\n",
    );
    const noValue = await runCli(["tools", "--format"]);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toBe("runbound: Option `--format` needs a value, as in `--format json`.\n");
  });

  it("says that bad JSON came from stdin, on one line, and how to send it there", async () => {
    const { code, stderr } = await runCli(["call", "read", "-", "-C", project], { stdin: '{"path":\n README.md}\n' });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^runbound: The input on stdin is not valid JSON \(.+\): `\{"path": README\.md\}`\. Send one JSON object on stdin, as in `echo '\{"path":"README\.md"\}' \| runbound call read -`\.\n$/,
    );
    expect(stderr).not.toContain("shell");
    const empty = await runCli(["call", "read", "-", "-C", project], { stdin: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("runbound: The input on stdin is empty. Send one JSON object on stdin");
  });

  it("lists each tool's input schema in a session, as `tools --format json` does, and takes a request without input", async () => {
    const requests = [{ id: 1, command: "tools" }, { id: 2, tool: "read" }, { id: 3 }, { id: 4, command: "list" }]
      .map((request) => JSON.stringify(request))
      .join("\n");
    const { code, stdout } = await runCli(["session", "-C", project], { stdin: `${requests}\n` });
    expect(code).toBe(0);
    const byId = new Map(
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .map((response) => [response["id"], response]),
    );
    const exported = JSON.parse((await runCli(["tools", "--format", "json", "-C", project])).stdout) as unknown[];
    expect(byId.get(1)!["tools"]).toEqual(exported);
    expect(byId.get(1)!["tools"]).toContainEqual(
      expect.objectContaining({ name: "read", inputSchema: expect.objectContaining({ required: ["path"] }) }),
    );
    expect(JSON.stringify(byId.get(2)!["result"])).toContain("Field `path` is required");
    expect(byId.get(3)!["error"]).toBe(
      'A request needs "tool", a tool name; this one has none. Send {"id":1,"tool":"read","input":{"path":"README.md"}} ("input" is optional and defaults to {}), or {"command":"tools"} to list the tools.',
    );
    expect(byId.get(4)!["error"]).toContain('Unknown command `"list"`.');
  });

  it("keeps a call's images where it said, and removes image directories older than a day at the next one", async () => {
    const temporary = await realpath(await mkdtemp(join(tmpdir(), "runbound-tmpdir-")));
    const stale = join(temporary, "runbound-images-stale1");
    const recent = join(temporary, "runbound-images-recent");
    const unrelated = join(temporary, "someone-elses-images");
    for (const directory of [stale, recent, unrelated]) await mkdir(directory);
    await writeFile(join(stale, "image-1.png"), "old");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const directory of [stale, unrelated]) await utimes(directory, twoDaysAgo, twoDaysAgo);
    const env = { ...process.env, TMPDIR: temporary };
    const help = await runCli(["call", "--help"], { env });
    expect(help.stdout).toContain(
      `in a new directory \`${join(temporary, "runbound-images-XXXXXX")}\` per call; a later call that saves images\nremoves those older than 24 hours.`,
    );
    const { code, stdout } = await runCli(
      ["call", "snapshot", "--plugin", join(fixtures, "image-plugin.mjs"), "-C", project],
      { env },
    );
    expect(code).toBe(0);
    const saved = /saved to (.+\.png)\]/.exec(stdout)![1]!;
    expect(saved.startsWith(join(temporary, "runbound-images-"))).toBe(true);
    expect((await readdir(temporary)).sort()).toEqual(
      [basename(dirname(saved)), "runbound-images-recent", "someone-elses-images"].sort(),
    );
    expect((await stat(saved)).size).toBe(8);
  });
});

describe("runbound --plugin", () => {
  it("loads a third-party plugin from a path and calls its tool", async () => {
    const { code, stdout } = await runCli([
      "call",
      "greet",
      '{"name":"Ada"}',
      "--plugin",
      join(fixtures, "greeting-plugin.mjs"),
      "-C",
      project,
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe("Hello, Ada!\n");
  });

  /** A project with the greeting plugin installed as a package, and the plugin's peer dependencies. */
  async function projectWithPackage(name: string, exportsField: unknown): Promise<string> {
    const workspace = await realpath(await mkdtemp(join(tmpdir(), "runbound-plugin-package-")));
    const packageDir = join(workspace, "node_modules", name);
    await mkdir(packageDir, { recursive: true });
    await writeFile(join(packageDir, "package.json"), JSON.stringify({ name, type: "module", exports: exportsField }));
    await writeFile(join(packageDir, "index.mjs"), await readFile(join(fixtures, "greeting-plugin.mjs"), "utf8"));
    await mkdir(join(workspace, "node_modules", "@runbound"));
    await symlink(
      fileURLToPath(new URL("../../../node_modules/@runbound/tool-kit", import.meta.url)),
      join(workspace, "node_modules", "@runbound", "tool-kit"),
    );
    await symlink(
      fileURLToPath(new URL("../../../node_modules/valibot", import.meta.url)),
      join(workspace, "node_modules", "valibot"),
    );
    return workspace;
  }

  it("loads a plugin by package name from the workdir's node_modules", async () => {
    const workspace = await projectWithPackage("acme-greeting", { ".": "./index.mjs" });
    const { code, stdout } = await runCli([
      "call",
      "greet",
      '{"name":"Grace"}',
      "--plugin",
      "acme-greeting",
      "-C",
      workspace,
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe("Hello, Grace!\n");
  });

  it("loads a package whose exports offer only the import condition, as an import from the workdir would", async () => {
    const workspace = await projectWithPackage("acme-esm-only", { ".": { import: "./index.mjs" } });
    const { code, stdout, stderr } = await runCli(
      ["call", "greet", '{"name":"Edsger"}', "--plugin", "acme-esm-only", "-C", workspace],
      { cwd: tmpdir() },
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe("Hello, Edsger!\n");
  });

  it("says a package is installed but exports nothing import can reach, naming the fix", async () => {
    const workspace = await projectWithPackage("acme-require-only", { ".": { require: "./index.mjs" } });
    const { code, stderr } = await runCli(["tools", "--plugin", "acme-require-only", "-C", workspace]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      `runbound: Plugin \`acme-require-only\` is installed for the workdir \`${workspace}\` but cannot be imported: `,
    );
    expect(stderr).toContain(
      "package.json. Give its package.json an `exports` entry with an `import` or `default` condition.",
    );
  });

  it("loads a plugin given as its package directory through the package's own exports", async () => {
    const workspace = await projectWithPackage("acme-directory", { ".": { import: "./index.mjs" } });
    const { code, stdout, stderr } = await runCli(
      ["call", "greet", '{"name":"Alan"}', "--plugin", ".", "-C", workspace],
      { cwd: join(workspace, "node_modules", "acme-directory") },
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe("Hello, Alan!\n");
  });

  it("says a directory without a package.json is not a plugin, naming what to pass instead", async () => {
    const { code, stderr } = await runCli(["tools", "--plugin", "./__fixtures__", "-C", project], {
      cwd: dirname(fixtures),
    });
    expect(code).toBe(3);
    expect(stderr).toContain(
      `Plugin \`./__fixtures__\` is a directory without a package.json naming its package (looked at \`${join(fixtures, "package.json")}\`). Pass the plugin's built entry file (e.g. ./__fixtures__/dist/index.js) or the directory of its package.`,
    );
  });

  it("resolves a plugin path from the current directory, not the workdir", async () => {
    const fromFixtures = await runCli(
      ["call", "greet", '{"name":"Barbara"}', "--plugin", "./greeting-plugin.mjs", "-C", project],
      { cwd: fixtures },
    );
    expect(fromFixtures).toMatchObject({ code: 0, stdout: "Hello, Barbara!\n" });
    const fromProject = await runCli(["tools", "--plugin", "./greeting-plugin.mjs", "-C", fixtures], { cwd: project });
    expect(fromProject.code).toBe(3);
    expect(fromProject.stderr).toContain(
      `Plugin file \`./greeting-plugin.mjs\` does not exist (looked at \`${join(project, "greeting-plugin.mjs")}\`). Pass a path to the plugin's built JavaScript entry, relative to the current directory.`,
    );
  });

  it("saves an image of a result to a file and prints its path", async () => {
    const { code, stdout } = await runCli([
      "call",
      "snapshot",
      "--plugin",
      join(fixtures, "image-plugin.mjs"),
      "-C",
      project,
    ]);
    expect(code).toBe(0);
    const [caption, imageLine] = stdout.trim().split("\n");
    expect(caption).toBe("a picture:");
    const saved = /^\[image image\/png saved to (.+\.png)\]$/.exec(imageLine!);
    expect(saved).not.toBeNull();
    expect([...(await readFile(saved![1]!))]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("exits 3 for a plugin with an unknown specificationVersion", async () => {
    const { code, stderr } = await runCli(["tools", "--plugin", join(fixtures, "future-plugin.mjs"), "-C", project]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      "Plugin `future-plugin` declares specificationVersion `tool-v9`, but this host understands `tool-v1`",
    );
  });

  it("exits 3 for a plugin that throws while imported, saying so instead of suggesting an install", async () => {
    const { code, stderr } = await runCli(["tools", "--plugin", join(fixtures, "throwing-plugin.mjs"), "-C", project]);
    expect(code).toBe(3);
    expect(stderr).toContain(
      "throwing-plugin.mjs` threw while it was imported: boom at import. This is a bug in the plugin;",
    );
    expect(stderr).not.toContain("npm install");
  });

  it("exits 3 when two plugins register the same tool name", async () => {
    const { code, stderr } = await runCli(["tools", "--plugin", join(fixtures, "clashing-plugin.mjs"), "-C", project]);
    expect(code).toBe(3);
    expect(stderr).toContain("Tool `read` is defined by both `@runbound/tool-files` and `clashing-plugin`.");
  });

  it("exits 3 for a plugin that does not exist or a workdir that does not exist", async () => {
    const missing = await runCli(["tools", "--plugin", "./no-such-plugin.mjs", "-C", project]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("Plugin file `./no-such-plugin.mjs` does not exist");
    const noWorkdir = await runCli(["tools", "-C", join(project, "nope")]);
    expect(noWorkdir.code).toBe(3);
    expect(noWorkdir.stderr).toContain("does not exist or is not a directory");
  });
});
