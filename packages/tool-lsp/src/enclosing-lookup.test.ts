import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fakeProject, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

describe("enclosing symbols of references, from a scripted server (a real child process)", () => {
  it("asks each file's document symbols once per text, opening a file the server did not have only for the question", async () => {
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
    const documentEvents = (): string[] =>
      readFileSync(join(workdir, "project", ".document-events"), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.replace(/ .*\//, " "));

    const expected = [
      "2 references for `answer` at project/main.fake:1:",
      "project/helper.fake",
      "  1 in run: answer()",
      "project/main.fake",
      "  2 in run: print(answer)",
    ].join("\n");
    expect(await references()).toBe(expected);
    expect(requests().sort()).toEqual(["helper.fake", "main.fake"]);
    // The file the call is about stays open; the one opened for its label is closed again.
    // (The server records a notification when it reads it, a moment after the answer.)
    await vi.waitFor(() =>
      expect(documentEvents()).toEqual(["didOpen main.fake", "didOpen helper.fake", "didClose helper.fake"]),
    );
    expect(await references()).toBe(expected);
    expect(requests()).toHaveLength(2);
    expect(documentEvents()).toHaveLength(3);
    // A file changed on disk is read again and only its symbols are asked again, opened for that only.
    writeFileSync(join(workdir, "project", "helper.fake"), "# moved\nanswer()\n");
    expect(await references()).toContain("project/helper.fake\n  1 in run: # moved");
    expect(requests().slice(2)).toEqual(["helper.fake"]);
    await vi.waitFor(() => expect(documentEvents().slice(3)).toEqual(["didOpen helper.fake", "didClose helper.fake"]));
  });
});
