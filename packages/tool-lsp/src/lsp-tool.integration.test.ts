import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { copyFixture, devBinary, realProgramsAvailable } from "./test-support/real-servers.js";

const available = realProgramsAvailable(["typescript-language-server", "pyright-langserver"]);

// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("lsp against the real typescript-language-server and pyright (monorepo fixture)", () => {
  let workdir: string;
  let supervisor: LspSupervisorInstance;
  let run: FakeRun;
  const call = async (input: Record<string, unknown>): Promise<string> => resultText(await run.call("lsp", input));
  const settled = async (file: string): Promise<void> => {
    await expect.poll(() => call({ op: "status", file }), { timeout: slow, interval: 500 }).toMatch(/: running — /);
  };

  beforeAll(async () => {
    workdir = copyFixture("monorepo");
    const bin = dirname(devBinary("typescript-language-server")!);
    supervisor = createLspSupervisor({ pathVariable: `${bin}:${process.env["PATH"] ?? ""}` });
    run = createFakeRun({
      plugins: [lspPlugin],
      resources: [
        [LspSupervisor, supervisor],
        [Workdir, workdir],
      ],
    });
  });

  afterAll(async () => {
    await supervisor?.dispose();
  });

  it("status before anything ran starts nothing and finds the programs", async () => {
    const text = await call({ op: "status" });
    expect(text).toMatch(/- typescript: not started — program `.*typescript-language-server`/);
    expect(text).toContain("- rust:");
    expect(supervisor.running()).toEqual([]);
    expect(await call({ op: "status", file: "packages/web/src/main.ts" })).toContain(
      "not started — `typescript` for root `packages/web` (marker `tsconfig.json`)",
    );
  });

  it("a file with no root marker above it gets no server, and says so", async () => {
    expect(await call({ op: "status", file: "loose/notes.ts" })).toMatch(
      /^loose\/notes\.ts: no root marker\. No root marker for `typescript`: none of `tsconfig\.json`, `jsconfig\.json`, `package\.json` exists in `loose`/,
    );
    const result = await run.call("lsp", { op: "hover", file: "loose/notes.ts", line: 1, symbol: "note" });
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(supervisor.running()).toEqual([]);
  });

  it(
    "TypeScript in a sub-package: definition after CJK and an emoji on the line (UTF-16 columns)",
    async () => {
      const started = Date.now();
      const first = await call({ op: "definition", file: "packages/web/src/main.ts", line: 3, symbol: "greet" });
      console.info(`typescript first answer (cold): ${Date.now() - started} ms`);
      expect(first).toMatch(/definition/);
      await settled("packages/web/src/main.ts");
      const text = await call({ op: "definition", file: "packages/web/src/main.ts", line: 3, symbol: "greet" });
      expect(text).toBe(
        "1 definition for `greet` at packages/web/src/main.ts:3:\npackages/web/src/greet.ts:2: export function greet(name: string): string {",
      );
    },
    slow,
  );

  it(
    "hover gives the signature and the doc comment",
    async () => {
      const usage = await call({ op: "hover", file: "packages/web/src/main.ts", line: 5, symbol: "greet" });
      expect(usage).toContain("(alias) greet(name: string): string");
      expect(usage).toContain("Says hello to someone by name.");
      const declaration = await call({ op: "hover", file: "packages/web/src/greet.ts", line: 2, symbol: "greet" });
      expect(declaration).toBe(
        "Hover for `greet` at packages/web/src/greet.ts:2:\n```typescript\nfunction greet(name: string): string\n```\nSays hello to someone by name.",
      );
    },
    slow,
  );

  it(
    "references, implementation and type_definition list path:line with the source line",
    async () => {
      expect(await call({ op: "references", file: "packages/web/src/greet.ts", line: 2, symbol: "greet" })).toBe(
        [
          "4 references for `greet` at packages/web/src/greet.ts:2:",
          "packages/web/src/greet.ts",
          "  2 in greet: export function greet(name: string): string {",
          "packages/web/src/main.ts",
          '  1: import { greet, Square, type Shape } from "./greet.js";',
          '  3 in message: const 名前 = "😀 世界"; const message = greet(名前);',
          '  5 in report: export const report = [message, shape.area(), greet("again")];',
        ].join("\n"),
      );
      expect(
        await call({ op: "implementation", file: "packages/web/src/greet.ts", line: 6, symbol: "Shape" }),
      ).toContain("packages/web/src/greet.ts\n  10 in Square: export class Square implements Shape {");
      expect(
        await call({ op: "type_definition", file: "packages/web/src/main.ts", line: 4, symbol: "shape" }),
      ).toContain("packages/web/src/greet.ts:6: export interface Shape {");
    },
    slow,
  );

  it(
    "symbols: a file's outline in source order, and a project search by name",
    async () => {
      const outline = await call({ op: "symbols", file: "packages/web/src/greet.ts" });
      expect(outline).toMatch(/^\d+ symbols in packages\/web\/src\/greet\.ts:\nfunction greet — line 2\n/);
      expect(outline).toContain("class Square — line 10");
      expect(outline).toContain("  method area — line 12");
      const search = await call({ op: "symbols", query: "Squar", file: "packages/web/src/main.ts" });
      expect(search).toContain("class Square — packages/web/src/greet.ts:10: export class Square implements Shape {");
    },
    slow,
  );

  it(
    "diagnostics of a broken file, and of a clean one",
    async () => {
      const broken = await call({ op: "diagnostics", file: "packages/web/src/broken.ts" });
      expect(broken).toContain("1 error, 0 warnings in packages/web/src/broken.ts");
      expect(broken).toContain(
        "packages/web/src/broken.ts:1: error typescript 2322: Type 'string' is not assignable to type 'number'.",
      );
      expect(await call({ op: "diagnostics", file: "packages/web/src/greet.ts" })).toMatch(
        /^No (errors or warnings in|diagnostics for) packages\/web\/src\/greet\.ts/,
      );
    },
    slow,
  );

  it(
    "code_actions lists what the server offers at a symbol without applying it",
    async () => {
      const text = await call({ op: "code_actions", file: "packages/web/src/main.ts", line: 3, symbol: "greet(名前)" });
      expect(text).toMatch(
        /code actions? for `greet\(名前\)` at packages\/web\/src\/main\.ts:3 \(listed only; make the change with an edit tool\):\n- /,
      );
    },
    slow,
  );

  it(
    "Python src-layout beside it: pyright resolves the import into src/",
    async () => {
      const started = Date.now();
      await call({ op: "hover", file: "python/src/shop/main.py", line: 3, symbol: "total" });
      console.info(`pyright first answer (cold): ${Date.now() - started} ms`);
      await settled("python/src/shop/main.py");
      expect(await call({ op: "definition", file: "python/src/shop/main.py", line: 3, symbol: "total" })).toBe(
        "1 definition for `total` at python/src/shop/main.py:3:\npython/src/shop/cart.py:1: def total(prices: list[float]) -> float:",
      );
      const hover = await call({ op: "hover", file: "python/src/shop/main.py", line: 1, symbol: "total" });
      expect(hover).toContain("(prices: list[float]) -> float");
      expect(hover).toContain("Sum the prices in a cart.");
      writeFileSync(join(workdir, "python/src/shop/bad.py"), "from shop.cart import total\n\ntotal(3)\n");
      const diagnostics = await call({ op: "diagnostics", file: "python/src/shop/bad.py" });
      expect(diagnostics).toMatch(
        /^1 error, 0 warnings in python\/src\/shop\/bad\.py — pulled from the server for version 1\./,
      );
      expect(diagnostics).toContain(
        'python/src/shop/bad.py:3: error Pyright reportArgumentType: Argument of type "Literal[3]"',
      );
    },
    slow,
  );

  it(
    "one process per (server, root); dispose leaves nothing of either process group",
    async () => {
      const status = await call({ op: "status" });
      console.info(status);
      const sessions = supervisor.running();
      expect(sessions.map((session) => `${session.spec.id}@${session.shownRoot}`).sort()).toEqual([
        "python@python",
        "typescript@packages/web",
      ]);
      await supervisor.dispose();
      for (const session of sessions)
        expect((await listProcessGroup(session.pid)).filter((row) => row.state !== "Z")).toEqual([]);
    },
    slow,
  );
});
