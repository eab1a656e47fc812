import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import type { LspServerSpec } from "./server-spec.js";
import { fakeProject, living, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
/** Every server process group a test saw, checked gone against the process table once its supervisor is disposed. */
const groups = new Set<number>();
afterEach(async () => {
  for (const supervisor of supervisors) for (const session of supervisor.running()) groups.add(session.pid);
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
  for (const pgid of groups) expect(await living(pgid), `process group ${pgid}`).toEqual([]);
  groups.clear();
});

const partialRenameScript = join(
  dirname(fileURLToPath(import.meta.url)),
  "__fixtures__",
  "fake-servers",
  "partial-rename-server.mjs",
);

/** The fake server of `partial-rename-server.mjs` in `scenario`, for `.fake` files under a `fake.json`. */
function partialRenameServer(scenario: string): LspServerSpec {
  return {
    ...scriptedServer(scenario),
    name: "partial-rename fake server",
    server: { command: process.execPath, args: [partialRenameScript, scenario] },
  };
}

const main = "answer = 42\nprint(answer)\n";
const other = "from main import answer as alias\nprint(alias)\n";

function setUpPartial(scenario: string) {
  const project = fakeProject();
  writeFileSync(join(project.workdir, "project", "other.fake"), other);
  const supervisor = createLspSupervisor({ servers: [partialRenameServer(scenario)], stopGraceMs: 300 });
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, project.workdir],
    ],
  });
  const read = (file: string): string => readFileSync(join(project.workdir, "project", file), "utf8");
  return { ...project, run, supervisor, read };
}

function setUp(scenario: string, env: NodeJS.ProcessEnv = process.env) {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [scriptedServer(scenario)], stopGraceMs: 300, env });
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, project.workdir],
    ],
  });
  return { ...project, run };
}

describe("lsp_rename against scripted servers (real child processes)", () => {
  it("a server whose edit reaches outside the workdir gets nothing written, inside or out", async () => {
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), "runbound-outside-"))), "victim.txt");
    writeFileSync(outside, "untouched\n");
    const { run, workdir, file } = setUp("rename-outside", { ...process.env, RUNBOUND_FAKE_OUTSIDE: outside });
    const result = await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" });
    expect(resultErrorCode(result)).toBe("outside_workdir");
    expect(resultText(result)).toContain(
      `wants to change \`${outside}\`, which is outside the working directory, so nothing was changed`,
    );
    expect(readFileSync(outside, "utf8")).toBe("untouched\n");
    expect(readFileSync(join(workdir, file), "utf8")).toBe("answer = 42\nprint(answer)\n");
    expect(run.written).toEqual([]);
  });

  it("applies a file rename with the text edit, and reports both paths as written", async () => {
    const { run, workdir, file } = setUp("rename-with-file");
    const text = resultText(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" }));
    expect(text).toBe(
      "Renamed `answer` to `result`: 1 edit in 1 file.\n- project/renamed.fake (renamed from project/main.fake, 1 edit)",
    );
    expect(existsSync(join(workdir, file))).toBe(false);
    expect(readFileSync(join(workdir, "project", "renamed.fake"), "utf8")).toBe("result = 42\nprint(answer)\n");
    expect(run.written).toEqual([join(workdir, "project", "main.fake"), join(workdir, "project", "renamed.fake")]);
  });

  it("a symbol that is not on the line is refused before any server starts", async () => {
    const { run, file, workdir } = setUp("normal");
    const result = await run.call("lsp_rename", { file, line: 2, symbol: "answr", new_name: "result" });
    expect(resultErrorCode(result)).toBe("not_found");
    expect(resultText(result)).toContain(
      "`symbol` `answr` does not occur on line 2 of `project/main.fake` (`print(answer)`)",
    );
    expect(supervisors[0]!.running()).toEqual([]);
    expect(await supervisors[0]!.entries(workdir)).toEqual([]);
  });

  it("a server that finds nothing to rename says so", async () => {
    const { run, file } = setUp("normal");
    const result = await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" });
    expect(resultErrorCode(result)).toBe("not_found");
    expect(resultText(result)).toContain("found nothing to rename for `answer` at project/main.fake:1");
  });
});

describe("lsp_rename cross-checks the edit against the server's references (a fake server as a real process)", () => {
  it("refuses with `conflict` an edit that renames the declaration while the references list uses it leaves alone, and writes nothing", async () => {
    const { run, file, read } = setUpPartial("partial");
    const result = await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" });
    expect(resultErrorCode(result)).toBe("conflict");
    expect(resultText(result)).toBe(
      "Error (conflict): Language server `fake` answered the rename of `answer` at project/main.fake:1 with an edit that leaves 2 of the 3 references it lists with the old name `answer`: project/main.fake:2, project/other.fake:1. Nothing was written. " +
        "Its view of the project is probably out of date (files changed outside the run, or it is still loading): call `lsp` with `op` `reload` for this file and rename again, or rename those uses yourself.",
    );
    expect(read("main.fake")).toBe(main);
    expect(read("other.fake")).toBe(other);
    expect(run.written).toEqual([]);
  });

  it("applies an edit that covers every reference but a use through an alias, whose text is another name", async () => {
    const { run, file, read } = setUpPartial("alias");
    const text = resultText(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" }));
    expect(text).toBe(
      "Renamed `answer` to `result`: 3 edits in 2 files.\n- project/main.fake (2 edits)\n- project/other.fake (1 edit)",
    );
    expect(read("main.fake")).toBe("result = 42\nprint(result)\n");
    expect(read("other.fake")).toBe("from main import result as alias\nprint(alias)\n");
  });

  it("a server without referencesProvider is not cross-checked, and the answer says nothing of it", async () => {
    const { run, file, read } = setUpPartial("partial-no-references");
    const text = resultText(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" }));
    expect(text).toBe("Renamed `answer` to `result`: 1 edit in 1 file.\n- project/main.fake (1 edit)");
    expect(read("main.fake")).toBe("result = 42\nprint(answer)\n");
  });

  it("a server that fails to answer references still gets its rename applied, and the answer says it was not cross-checked", async () => {
    const { run, file } = setUpPartial("references-fail");
    const text = resultText(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" }));
    expect(text).toContain(
      "Renamed `answer` to `result`: 1 edit in 1 file. (Not cross-checked against `textDocument/references`: Language server `fake` answered `textDocument/references` with error -32603: references are not ready.",
    );
  });
});

describe("lsp_rename refuses a new_name with a control character before any server starts", () => {
  it.each([
    ["NUL", "re\u0000sult", "U+0000 at character 3"],
    ["a line break", "result\n", "U+000A at character 7"],
    ["a tab", "\tresult", "U+0009 at character 1"],
    ["ESC", "res\u001bult", "U+001B at character 4"],
    ["DEL", "result\u007f", "U+007F at character 7"],
    ["a C1 control (NEL)", "re\u0085sult", "U+0085 at character 3"],
    ["the last C1 control", "\u009fresult", "U+009F at character 1"],
  ])("%s", async (_, newName, where) => {
    const { run, file, workdir } = setUp("normal");
    const result = await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: newName });
    expect(resultErrorCode(result)).toBe("invalid_input");
    expect(resultText(result)).toBe(
      `Error (invalid_input): \`new_name\` contains the control character ${where}; an identifier cannot contain control characters. Give the name as plain text, e.g. \`loadConfig\`.`,
    );
    expect(supervisors[0]!.running()).toEqual([]);
    expect(await supervisors[0]!.entries(workdir)).toEqual([]);
  });

  it("accepts the printable characters next to the control ranges: `~` before DEL, `¡` after the C1 controls and the no-break space", async () => {
    const { run, file } = setUp("normal");
    // Past the name check, the scripted server answers "nothing to rename": what matters is that the check let them through.
    for (const newName of ["a~b", "a¡b"])
      expect(
        resultErrorCode(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: newName })),
      ).toBe("not_found");
  });
});
