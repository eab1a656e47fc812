import { resultErrorCode, resultText } from "@runbound/tool-kit";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devBinary, realProgramsAvailable } from "./test-support/real-servers.js";
import { living } from "./test-support/scripted-servers.js";
import { useWriteRun } from "./test-support/write-run.js";

const available = realProgramsAvailable(["typescript-language-server", "pyright-langserver"]);
// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("lsp_rename against the real typescript-language-server and pyright", () => {
  const suite = useWriteRun("monorepo");
  const run = suite;
  const read = (file: string): string => readFileSync(join(suite.workdir, file), "utf8");

  it(
    "TypeScript: renames a function in its file and at every use, reports the files, and the server sees the new text",
    { timeout: slow },
    async () => {
      // Wait until the project is loaded, so the rename covers every file and not only the open one.
      await expect
        .poll(
          async () =>
            resultText(
              await run.call("lsp", { op: "references", file: "packages/web/src/greet.ts", line: 2, symbol: "greet" }),
            ),
          { timeout: slow, interval: 1_000 },
        )
        .toContain("main.ts");
      const result = await run.call("lsp_rename", {
        file: "packages/web/src/greet.ts",
        line: 2,
        symbol: "greet",
        new_name: "salute",
      });
      const text = resultText(result);
      expect(text).toContain("Renamed `greet` to `salute`: 4 edits in 2 files.");
      expect(text).toContain("- packages/web/src/greet.ts (1 edit)");
      expect(text).toContain("- packages/web/src/main.ts (3 edits)");
      // The diagnostics observer checked the written files.
      expect(text).toContain("packages/web/src/main.ts: no new errors or warnings.");
      expect(read("packages/web/src/greet.ts")).toContain("export function salute(name: string): string {");
      expect(read("packages/web/src/main.ts")).toBe(
        'import { salute, Square, type Shape } from "./greet.js";\n\nconst 名前 = "😀 世界"; const message = salute(名前);\nconst shape: Shape = new Square(2);\nexport const report = [message, shape.area(), salute("again")];\n',
      );
      const references = resultText(
        await run.call("lsp", { op: "references", file: "packages/web/src/main.ts", line: 3, symbol: "salute" }),
      );
      expect(references).toContain(
        'packages/web/src/main.ts\n  1: import { salute, Square, type Shape } from "./greet.js";\n  3 in message: ',
      );
      expect(references).toContain('  5 in report: export const report = [message, shape.area(), salute("again")];');
    },
  );

  it(
    "refuses a name with spaces, the same name, and a keyword (whose neighbour tsserver would rename), changing nothing",
    { timeout: slow },
    async () => {
      const before = read("packages/web/src/main.ts");
      const spaced = await run.call("lsp_rename", {
        file: "packages/web/src/main.ts",
        line: 4,
        symbol: "shape",
        new_name: "my shape",
      });
      expect(resultErrorCode(spaced)).toBe("invalid_input");
      expect(resultText(spaced)).toContain("`new_name` `my shape` is not an identifier");
      const same = await run.call("lsp_rename", {
        file: "packages/web/src/main.ts",
        line: 4,
        symbol: "shape",
        new_name: "shape",
      });
      expect(resultText(same)).toContain("the name it already has");
      const keyword = await run.call("lsp_rename", {
        file: "packages/web/src/main.ts",
        line: 4,
        symbol: "const",
        new_name: "let",
      });
      expect(resultErrorCode(keyword)).toBe("invalid_input");
      // tsserver offers to rename the next identifier for a keyword: the tool checks the range and refuses.
      expect(resultText(keyword)).toContain(
        "Language server `typescript` would rename `shape` at line 4, not `const` at packages/web/src/main.ts:4, so nothing was changed.",
      );
      expect(read("packages/web/src/main.ts")).toBe(before);
    },
  );

  it("Python: pyright renames a function across modules of a src-layout package", { timeout: slow }, async () => {
    await expect
      .poll(
        async () =>
          resultText(
            await run.call("lsp", { op: "references", file: "python/src/shop/cart.py", line: 1, symbol: "total" }),
          ),
        { timeout: slow, interval: 1_000 },
      )
      .toContain("main.py");
    const text = resultText(
      await run.call("lsp_rename", {
        file: "python/src/shop/cart.py",
        line: 1,
        symbol: "total",
        new_name: "grand_total",
      }),
    );
    expect(text).toContain("Renamed `total` to `grand_total`: 3 edits in 2 files.");
    expect(read("python/src/shop/cart.py")).toContain("def grand_total(prices: list[float]) -> float:");
    expect(read("python/src/shop/main.py")).toBe(
      "from shop.cart import grand_total\n\nprint(grand_total([1.0, 2.5]))\n",
    );
  });
});

/** The project's own checker on the fixture: exit 0 and no output when every use matches a declaration. */
async function typeCheck(project: string): Promise<string> {
  const tsc = devBinary("tsc")!;
  return promisify(execFile)(tsc, ["--noEmit", "--pretty", "false", "-p", project]).then(
    () => "clean",
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
}

// Issue 21 §3/§5: after `git checkout .` reverted a rename outside the run, the server still had the
// renamed texts open and renamed the declaration only, leaving a project that no longer compiled.
describe.runIf(realProgramsAvailable(["typescript-language-server", "tsc"]))(
  "lsp_rename after the files were restored on disk outside the run (typescript-language-server)",
  () => {
    const files = ["src/greet.ts", "src/a.ts", "src/b.ts"];
    const originals = new Map<string, string>();
    const pids = new Set<number>();
    // Registered before the run's own hooks, so it runs after its servers were disposed: every server any round used is gone.
    afterAll(async () => {
      for (const pid of pids) expect(await living(pid)).toEqual([]);
    });
    const suite = useWriteRun("rename-resync");
    const run = suite;
    const read = (file: string): string => readFileSync(join(suite.workdir, file), "utf8");
    beforeAll(() => {
      for (const file of files) originals.set(file, read(file));
    });

    it("renames every use in every round, and the project type-checks after each", { timeout: 4 * slow }, async () => {
      await expect
        .poll(
          async () =>
            resultText(await run.call("lsp", { op: "references", file: "src/greet.ts", line: 2, symbol: "greet" })),
          { timeout: slow, interval: 1_000 },
        )
        .toContain("src/b.ts");
      for (const round of [1, 2, 3, 4]) {
        const newName = `salute${round}`;
        const text = resultText(
          await run.call("lsp_rename", { file: "src/greet.ts", line: 2, symbol: "greet", new_name: newName }),
        );
        for (const session of suite.supervisor.running()) pids.add(session.pid);
        expect(text, `round ${round}`).toContain(`Renamed \`greet\` to \`${newName}\`: 6 edits in 3 files.`);
        for (const file of files)
          expect(read(file).replaceAll('"./greet.js"', ""), `round ${round}: ${file}`).not.toMatch(/\bgreet\b/);
        expect(read("src/b.ts")).toBe(
          `import { ${newName} } from "./greet.js";\n\nexport const second = ${newName}("b");\nexport const third = [${newName}("c")].join();\n`,
        );
        expect(await typeCheck(suite.workdir), `round ${round}`).toBe("clean");
        // What `git checkout .` does: the original texts come back, written by another process than the run.
        for (const [file, text] of originals) writeFileSync(join(suite.workdir, file), text);
      }
    });
  },
);

describe.runIf(realProgramsAvailable(["pyright-langserver"]))(
  "lsp_rename after the files were restored on disk outside the run (pyright)",
  () => {
    const files = ["python/src/shop/cart.py", "python/src/shop/main.py"];
    const originals = new Map<string, string>();
    const suite = useWriteRun("monorepo");
    const run = suite;
    const read = (file: string): string => readFileSync(join(suite.workdir, file), "utf8");
    beforeAll(() => {
      for (const file of files) originals.set(file, read(file));
    });

    it(
      "renames the open files restored on disk and a file created outside the run that pyright never had open",
      { timeout: 2 * slow },
      async () => {
        const references = async (): Promise<string> =>
          resultText(
            await run.call("lsp", { op: "references", file: "python/src/shop/cart.py", line: 1, symbol: "total" }),
          );
        await expect.poll(references, { timeout: slow, interval: 1_000 }).toContain("main.py");
        expect(
          resultText(
            await run.call("lsp_rename", {
              file: "python/src/shop/cart.py",
              line: 1,
              symbol: "total",
              new_name: "grand_total",
            }),
          ),
        ).toContain("3 edits in 2 files.");
        // `git checkout .`, and a new module using the old name, all by another process than the run.
        for (const [file, text] of originals) writeFileSync(join(suite.workdir, file), text);
        writeFileSync(
          join(suite.workdir, "python/src/shop/report.py"),
          "from shop.cart import total\n\nsummary = total([3.0])\n",
        );
        // pyright learns of the new file only through the watched-files notifications it registered for.
        await expect.poll(references, { timeout: 30_000, interval: 500 }).toContain("report.py");
        const text = resultText(
          await run.call("lsp_rename", {
            file: "python/src/shop/cart.py",
            line: 1,
            symbol: "total",
            new_name: "sum_total",
          }),
        );
        expect(text).toContain("Renamed `total` to `sum_total`: 5 edits in 3 files.");
        expect(read("python/src/shop/main.py")).toBe(
          "from shop.cart import sum_total\n\nprint(sum_total([1.0, 2.5]))\n",
        );
        expect(read("python/src/shop/report.py")).toBe(
          "from shop.cart import sum_total\n\nsummary = sum_total([3.0])\n",
        );
        expect(read("python/src/shop/cart.py")).toContain("def sum_total(prices: list[float]) -> float:");
      },
    );
  },
);
