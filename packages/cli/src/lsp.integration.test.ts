import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { processesWithEnvironment } from "./__fixtures__/process-table.js";
import { binPath, runCli } from "./__fixtures__/run-cli.js";
import { startSession } from "./__fixtures__/session-process.js";

const repository = fileURLToPath(new URL("../../../", import.meta.url));
const serverBin = join(repository, "node_modules", ".bin");
const available = existsSync(join(serverBin, "typescript-language-server"));
if (!available && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
  throw new Error(
    "RUNBOUND_REQUIRE_REAL is set but typescript-language-server is not installed; run `npm ci` at the repository root.",
  );
}
// Cold starts of tsserver on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 240_000;
const mark = "RUNBOUND_TEST_LSP_MARK";

/** An environment that finds the repository's language servers and marks every process started under it. */
function markedEnvironment(): { env: NodeJS.ProcessEnv; value: string } {
  const value = randomUUID();
  // Correctness, not speed, is under test (bench/lsp measures speed): a loaded CI machine gets 10 s to answer after a write.
  return {
    value,
    env: {
      ...process.env,
      PATH: `${serverBin}:${process.env["PATH"] ?? ""}`,
      [mark]: value,
      RUNBOUND_LSP_WRITE_CEILING_MS: "10000",
    },
  };
}

async function tsProject(): Promise<string> {
  const project = await realpath(await mkdtemp(join(tmpdir(), "runbound-cli-lsp-")));
  await mkdir(join(project, "src"));
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }),
  );
  await writeFile(
    join(project, "src", "app.ts"),
    "export function double(value: number): number {\n  return value * 2;\n}\nexport const four = double(2);\n",
  );
  return project;
}

const breaking = { path: "src/app.ts", old_string: "double(2)", new_string: 'double("two")' };
const fixing = { path: "src/app.ts", old_string: 'double("two")', new_string: "double(2)" };
const newError =
  /src\/app\.ts: 1 error introduced by this write so far:\n {2}src\/app\.ts:4: error typescript 2345: Argument of type 'string' is not assignable to parameter of type 'number'\./;

async function gone(value: string): Promise<number[]> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (processesWithEnvironment(mark, value).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return processesWithEnvironment(mark, value);
}

describe.runIf(available)("the CLI with the real typescript-language-server", () => {
  it(
    "`runbound call lsp hover` answers on this repository's own TypeScript, and leaves no server behind",
    { timeout: slow },
    async () => {
      const { env, value } = markedEnvironment();
      const input = JSON.stringify({
        op: "hover",
        file: "packages/tool-kit/src/aborted-error.ts",
        line: 9,
        symbol: "abortedError",
      });
      const { code, stdout, stderr } = await runCli(["call", "lsp", input, "--workdir", repository], { env });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toContain("Hover for `abortedError` at packages/tool-kit/src/aborted-error.ts:9:");
      expect(stdout).toContain("function abortedError(signal: AbortSignal, messages: {");
      expect(stdout).toContain("The error a call answers once its signal aborted.");
      expect(await gone(value)).toEqual([]);
    },
  );

  it(
    "`runbound session`: an edit that breaks a file returns the new diagnostic; the edit that fixes it reports it resolved",
    { timeout: slow },
    async () => {
      const project = await tsProject();
      const { env, value } = markedEnvironment();
      const session = startSession(project, env);
      const ask = async (tool: string, input: Record<string, unknown>): Promise<string> => {
        const outcome = await session.request(`"tool":${JSON.stringify(tool)},"input":${JSON.stringify(input)}`, slow);
        if (outcome.kind !== "answer") throw new Error(`no answer to ${tool}: ${JSON.stringify(outcome)}`);
        return JSON.stringify(outcome.answer["result"]);
      };
      const text = async (tool: string, input: Record<string, unknown>): Promise<string> =>
        (JSON.parse(await ask(tool, input)) as { content: Array<{ text: string }> }).content
          .map((item) => item.text)
          .join("\n");
      // A model that looked at the file first: the server is warm and this is the baseline.
      expect(await text("lsp", { op: "diagnostics", file: "src/app.ts" })).toContain(
        "No errors or warnings in src/app.ts",
      );
      const broken = await text("edit", breaking);
      expect(broken).toContain("Edited `src/app.ts`: 1 replacement (line 4).");
      expect(broken).toMatch(newError);
      const fixed = await text("edit", fixing);
      expect(fixed).toContain("src/app.ts: resolved 1 diagnostic:");
      expect(fixed).not.toContain("introduced");
      // The CLI and the language server (in its own process group) both carry the mark while the run lives.
      expect(processesWithEnvironment(mark, value).length).toBeGreaterThanOrEqual(2);
      expect(await session.close(10_000)).toEqual({ code: 0, signal: null });
      expect(await gone(value)).toEqual([]);
    },
  );

  it("`runbound mcp`: the same through the official MCP client", { timeout: slow }, async () => {
    const project = await tsProject();
    const { env, value } = markedEnvironment();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, "mcp", "--workdir", project],
      stderr: "pipe",
      env: env as Record<string, string>,
    });
    const client = new Client({ name: "runbound-test", version: "1.0.0" });
    await client.connect(transport);
    const call = async (name: string, input: Record<string, unknown>): Promise<string> => {
      const result = await client.callTool({ name, arguments: input }, undefined, { timeout: slow });
      return (result.content as Array<{ text?: string }>).map((item) => item.text ?? "").join("\n");
    };
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["lsp", "lsp_rename", "edit"]));
    expect(await call("lsp", { op: "diagnostics", file: "src/app.ts" })).toContain(
      "No errors or warnings in src/app.ts",
    );
    expect(await call("edit", breaking)).toMatch(newError);
    const fixed = await call("edit", fixing);
    expect(fixed).toContain("src/app.ts: resolved 1 diagnostic:");
    expect(fixed).not.toContain("introduced");
    await client.close();
    expect(await gone(value)).toEqual([]);
  });
});
