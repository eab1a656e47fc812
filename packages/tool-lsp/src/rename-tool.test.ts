import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fakeProject, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

function setUp(scenario: string, env: NodeJS.ProcessEnv = process.env) {
  const project = fakeProject();
  const supervisor = createLspSupervisor({ servers: [scriptedServer(scenario)], stopGraceMs: 300, env });
  supervisors.push(supervisor);
  const run = createFakeRun({ plugins: [lspPlugin], resources: [[LspSupervisor, supervisor], [Workdir, project.workdir]] });
  return { ...project, run };
}

describe("lsp_rename against scripted servers (real child processes)", () => {
  it("a server whose edit reaches outside the workdir gets nothing written, inside or out", async () => {
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), "runbound-outside-"))), "victim.txt");
    writeFileSync(outside, "untouched\n");
    const { run, workdir, file } = setUp("rename-outside", { ...process.env, RUNBOUND_FAKE_OUTSIDE: outside });
    const result = await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" });
    expect(resultErrorCode(result)).toBe("outside_workdir");
    expect(resultText(result)).toContain(`wants to change \`${outside}\`, which is outside the working directory, so nothing was changed`);
    expect(readFileSync(outside, "utf8")).toBe("untouched\n");
    expect(readFileSync(join(workdir, file), "utf8")).toBe("answer = 42\nprint(answer)\n");
    expect(run.written).toEqual([]);
  });

  it("applies a file rename with the text edit, and reports both paths as written", async () => {
    const { run, workdir, file } = setUp("rename-with-file");
    const text = resultText(await run.call("lsp_rename", { file, line: 1, symbol: "answer", new_name: "result" }));
    expect(text).toBe("Renamed `answer` to `result`: 1 edit in 1 file.\n- project/renamed.fake (renamed from project/main.fake, 1 edit)");
    expect(existsSync(join(workdir, file))).toBe(false);
    expect(readFileSync(join(workdir, "project", "renamed.fake"), "utf8")).toBe("result = 42\nprint(answer)\n");
    expect(run.written).toEqual([join(workdir, "project", "main.fake"), join(workdir, "project", "renamed.fake")]);
  });

  it("a symbol that is not on the line is refused before any server starts", async () => {
    const { run, file, workdir } = setUp("normal");
    const result = await run.call("lsp_rename", { file, line: 2, symbol: "answr", new_name: "result" });
    expect(resultErrorCode(result)).toBe("not_found");
    expect(resultText(result)).toContain("`symbol` `answr` does not occur on line 2 of `project/main.fake` (`print(answer)`)");
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
