import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { dependencyFiles } from "./dependency-files.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { sourceOp } from "./source-op.js";

describe("sourceOp", () => {
  let workdir: string;
  let outside: string;
  // `source` needs only the server table and the run's remembered files of the supervisor.
  const supervisor = { servers: DEFAULT_SERVERS } as unknown as LspSupervisorInstance;
  beforeAll(() => {
    workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-source-op-")));
    outside = realpathSync(mkdtempSync(join(tmpdir(), "runbound-source-dependency-")));
    writeFileSync(
      join(workdir, "app.go"),
      Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join("\n") + "\n",
    );
    mkdirSync(join(outside, "fmt"));
    writeFileSync(join(outside, "fmt", "print.go"), 'package fmt\n\nfunc Sprint(a ...any) string {\n\treturn ""\n}\n');
    writeFileSync(join(outside, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  });

  it("shows a numbered range of a file in the workdir, clipped at its end", async () => {
    expect((await sourceOp(supervisor, workdir, "app.go", 9, 20)).text).toBe(
      "app.go:9–12 of 12 lines:\n 9  line 9\n10  line 10\n11  line 11\n12  line 12",
    );
    await expect(sourceOp(supervisor, workdir, "app.go", 13, undefined)).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("has 12 lines"),
    });
    await expect(sourceOp(supervisor, workdir, "app.go", 5, 4)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(sourceOp(supervisor, workdir, "app.go", 1, 201)).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("reads an outside file only once a server named it, and only a source file", async () => {
    const print = join(outside, "fmt", "print.go");
    await expect(sourceOp(supervisor, workdir, print, 3, 5)).rejects.toMatchObject({
      code: "outside_workdir",
      message: expect.stringContaining("no language server named it as a location in this run"),
    });
    dependencyFiles(supervisor).remember(print);
    expect((await sourceOp(supervisor, workdir, print, 3, 5)).text).toBe(
      `${print}:3–5 of 5 lines:\n3  func Sprint(a ...any) string {\n4  \treturn ""\n5  }`,
    );
    const key = join(outside, "id_rsa");
    dependencyFiles(supervisor).remember(key);
    await expect(sourceOp(supervisor, workdir, key, 1, 1)).rejects.toMatchObject({ code: "not_found" });
    // Another run (another supervisor) has not been shown the file.
    await expect(
      sourceOp({ servers: DEFAULT_SERVERS } as unknown as LspSupervisorInstance, workdir, print, 3, 5),
    ).rejects.toMatchObject({ code: "outside_workdir" });
  });
});
