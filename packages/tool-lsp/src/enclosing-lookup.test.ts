import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fakeProject, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

describe("enclosing symbols of references, from a scripted server (a real child process)", () => {
  it("asks each file's document symbols once per version of its text, opening a file the server did not have", async () => {
    const { workdir, file } = fakeProject();
    writeFileSync(join(workdir, "project", "helper.fake"), "answer()\n");
    const supervisor = createLspSupervisor({ servers: [scriptedServer("navigates")], stopGraceMs: 300 });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    const references = async (): Promise<string> =>
      resultText(await run.call("lsp", { op: "references", file, line: 1, symbol: "answer" }));
    const requests = (): string[] =>
      readFileSync(join(workdir, "project", ".symbol-requests"), "utf8")
        .trim()
        .split("\n")
        .map((uri) => uri.replace(/^.*\//, ""));

    const expected = [
      "2 references for `answer` at project/main.fake:1:",
      "project/helper.fake",
      "  1 in run: answer()",
      "project/main.fake",
      "  2 in run: print(answer)",
    ].join("\n");
    expect(await references()).toBe(expected);
    expect(requests().sort()).toEqual(["helper.fake", "main.fake"]);
    expect(await references()).toBe(expected);
    expect(requests()).toHaveLength(2);
    // A file changed on disk is re-sent at its next version, and only its symbols are asked again.
    writeFileSync(join(workdir, "project", "helper.fake"), "# moved\nanswer()\n");
    expect(await references()).toContain("project/helper.fake\n  1 in run: # moved");
    expect(requests().slice(2)).toEqual(["helper.fake"]);
  });
});
