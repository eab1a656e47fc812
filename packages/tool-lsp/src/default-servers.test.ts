import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { devBinary } from "./test-support/real-servers.js";

function projectWithOwnTypeScript(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-own-ts-")));
  mkdirSync(join(root, "node_modules", "typescript", "lib"), { recursive: true });
  writeFileSync(join(root, "node_modules", "typescript", "lib", "tsserver.js"), "// the project's own tsserver\n");
  writeFileSync(join(root, "tsconfig.json"), "{}\n");
  return root;
}

describe("the TypeScript server's settings", () => {
  const typescript = DEFAULT_SERVERS.find((spec) => spec.id === "typescript")!;

  const program = devBinary("typescript-language-server")!;

  it("a trusted project's own tsserver is used", async () => {
    const root = projectWithOwnTypeScript();
    expect(await typescript.initializationOptions!({ root, workdir: root, trusted: true, program })).toMatchObject({
      tsserver: { path: join(root, "node_modules", "typescript", "lib") },
    });
  });

  it("an untrusted project's own tsserver is its code too: the one the server program depends on is named instead", async () => {
    const root = projectWithOwnTypeScript();
    const options = (await typescript.initializationOptions!({ root, workdir: root, trusted: false, program })) as {
      tsserver?: { path?: string };
    };
    expect(options.tsserver?.path).toBe(
      join(dirname(createRequire(realpathSync(program)).resolve("typescript/lib/tsserver.js"))),
    );
    expect(options.tsserver?.path?.startsWith(root)).toBe(false);
  });
});
