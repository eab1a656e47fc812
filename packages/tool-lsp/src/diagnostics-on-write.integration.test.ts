import { describe, expect, it } from "vitest";
import { realProgramsAvailable } from "./test-support/real-servers.js";
import { useWriteRun } from "./test-support/write-run.js";

const available = realProgramsAvailable(["typescript-language-server", "pyright-langserver"]);
// Cold starts on a busy 2-core machine take many seconds; the budget bounds a hang, not speed.
const slow = 180_000;

describe.runIf(available)("diagnostics on write against the real typescript-language-server and pyright", () => {
  const { put, lsp, readText } = useWriteRun("monorepo");

  const main = "packages/web/src/main.ts";
  const original =
    'import { greet, Square, type Shape } from "./greet.js";\n\nconst 名前 = "😀 世界"; const message = greet(名前);\nconst shape: Shape = new Square(2);\nexport const report = [message, shape.area(), greet("again")];\n';

  it(
    "TypeScript: a breaking edit reports the new error, a moving edit nothing, a fixing edit the resolution",
    { timeout: slow },
    async () => {
      // Warm the server and take the baseline as a model would: ask for the file's diagnostics first.
      await expect
        .poll(() => lsp({ op: "diagnostics", file: main }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in packages/web/src/main.ts");
      const broken = await put(main, original.replace("new Square(2)", 'new Square("two")'));
      expect(broken).toContain("packages/web/src/main.ts: 1 error introduced by this write so far:");
      expect(broken).toMatch(
        /packages\/web\/src\/main\.ts:4: error typescript 2345: Argument of type 'string' is not assignable to parameter of type 'number'\./,
      );

      const moved = await put(
        main,
        `// a comment moves every line\n${original.replace("new Square(2)", 'new Square("two")')}`,
      );
      expect(moved).toContain("packages/web/src/main.ts: no new errors or warnings.");

      const fixed = await put(main, original);
      expect(fixed).toContain("packages/web/src/main.ts: resolved 1 diagnostic:");
      expect(fixed).toContain(
        "error typescript 2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      );
      expect(fixed).not.toContain("introduced");
    },
  );

  it(
    "TypeScript: a signature change reports the callers it broke in another open file, and their repair",
    { timeout: slow },
    async () => {
      const greet = "packages/web/src/greet.ts";
      const source = await lsp({ op: "symbols", file: greet });
      expect(source).toContain("greet");
      await expect
        .poll(() => lsp({ op: "diagnostics", file: main }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in packages/web/src/main.ts");
      const original = await readText(greet);
      const broken = await put(
        greet,
        original.replace(
          "export function greet(name: string): string {",
          "export function greet(name: string, times: number): string {",
        ),
      );
      expect(broken).toContain("packages/web/src/greet.ts: no new errors or warnings.");
      expect(broken).toContain(
        "packages/web/src/main.ts: 2 errors introduced by this write so far (not written; changed with this write):",
      );
      expect(broken).toContain("packages/web/src/main.ts:3: error typescript 2554: Expected 2 arguments, but got 1.");
      const fixed = await put(greet, original);
      expect(fixed).toContain(
        "packages/web/src/main.ts: resolved 2 diagnostics (not written; changed with this write):",
      );
    },
  );

  it(
    "TypeScript: a clean write is answered as clean, and a breaking write right after it is not answered from the older text",
    { timeout: slow },
    async () => {
      await expect
        .poll(() => lsp({ op: "diagnostics", file: main }), { timeout: slow, interval: 1_000 })
        .toContain("No errors or warnings in packages/web/src/main.ts");
      // typescript-language-server publishes without a version, late, and not at all for a file that stays clean.
      const harmless = await put(main, `${original}// harmless\n`);
      expect(harmless).toContain("packages/web/src/main.ts: no new errors or warnings.");
      const broken = await put(main, `${original.replace("new Square(2)", 'new Square("two")')}// harmless\n`);
      expect(broken).toMatch(
        /packages\/web\/src\/main\.ts: 1 error introduced by this write so far:\n {2}packages\/web\/src\/main\.ts:4: error typescript 2345/,
      );
      expect(await put(main, original)).toContain("packages/web/src/main.ts: resolved 1 diagnostic:");
    },
  );

  it("Python: pyright reports a type error a write introduced, then its resolution", { timeout: slow }, async () => {
    const cart = "python/src/shop/cart.py";
    const clean =
      'def total(prices: list[float]) -> float:\n    """Sum the prices in a cart."""\n    return sum(prices)\n';
    await expect
      .poll(() => lsp({ op: "diagnostics", file: cart }), { timeout: slow, interval: 1_000 })
      .toContain("No errors or warnings in python/src/shop/cart.py");
    const broken = await put(cart, `${clean}\n\nlabel: int = "x"\n`);
    expect(broken).toMatch(
      /python\/src\/shop\/cart\.py: 1 error introduced by this write so far:\n {2}python\/src\/shop\/cart\.py:6: error Pyright reportAssignmentType: Type "Literal\['x'\]" is not assignable to declared type "int"/,
    );
    const fixed = await put(cart, clean);
    expect(fixed).toContain("python/src/shop/cart.py: resolved 1 diagnostic:");
  });
});
