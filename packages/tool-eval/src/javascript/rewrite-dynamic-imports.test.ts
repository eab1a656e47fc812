import { describe, expect, it } from "vitest";
import { rewriteDynamicImports } from "./rewrite-dynamic-imports.js";

describe("rewriteDynamicImports", () => {
  it("turns every import() expression into importModule(), options and nesting included", () => {
    expect(rewriteDynamicImports("const path = await import('node:path');")).toBe(
      "const path = await importModule('node:path');",
    );
    expect(
      rewriteDynamicImports(
        "async function load(name) {\n  return (await import (name, { with: { type: 'json' } })).default;\n}",
      ),
    ).toBe("async function load(name) {\n  return (await importModule (name, { with: { type: 'json' } })).default;\n}");
    expect(rewriteDynamicImports("[import('a'), import(`b${1}`)]")).toBe("[importModule('a'), importModule(`b${1}`)]");
  });

  it("leaves import( alone in strings, template text, comments and regular expressions", () => {
    const code =
      "// import('x')\n/* import('y') */\nconst text = \"import('z')\" + `import('w')` + /import\\(/.source;\ntext";
    expect(rewriteDynamicImports(code)).toBe(code);
  });

  it("sends code acorn cannot parse unchanged, for V8 to report", () => {
    for (const code of ["let = = 2; import('x')", "import.meta.url", "import x from 'y'"])
      expect(rewriteDynamicImports(code)).toBe(code);
  });
});
