import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { fakeProject, scriptedServer } from "./test-support/scripted-servers.js";

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

describe("a warm call reaches its running server without resolving the program again (issue 25 item 6)", () => {
  it("keeps answering after the program it started from is gone from PATH, and a restart says it is missing", async () => {
    const { workdir, file } = fakeProject();
    const bin = join(workdir, "..", `${workdir.split("/").at(-1)}-bin`);
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "fake-node"));
    const spec = scriptedServer("normal");
    const supervisor = createLspSupervisor({
      servers: [{ ...spec, server: { ...spec.server, command: "fake-node" } }],
      pathVariable: bin,
      stopGraceMs: 300,
    });
    supervisors.push(supervisor);
    const run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
    const hover = () => run.call("lsp", { op: "hover", file, line: 1, symbol: "answer" });

    expect(resultText(await hover())).toContain("function answer(): number");
    // Every PATH entry was stat-ed again on each call before; the running process needs none of it.
    rmSync(join(bin, "fake-node"));
    expect(resultText(await hover())).toContain("function answer(): number");
    // A start still looks for it, and says so: reload refuses before stopping the running server.
    const reload = await run.call("lsp", { op: "reload", file });
    expect(resultErrorCode(reload)).toBe("unavailable");
    expect(resultText(reload)).toContain("`fake-node`");
    expect(resultText(await hover())).toContain("function answer(): number");
  });
});
