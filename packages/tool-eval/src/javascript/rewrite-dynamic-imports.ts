import { parse } from "acorn";
import { simple } from "acorn-walk";

/** The kernel's global that does what `import()` would (defined in kernel-program.ts). */
const importer = "importModule";

/**
 * A cell with every `import(…)` expression turned into `importModule(…)`.
 *
 * The kernel runs cells through V8's REPL mode (`Runtime.evaluate`), and code compiled that way has no
 * host-defined options, so Node 20 answers its `import()` with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING
 * (`vm`'s `importModuleDynamically` only helps scripts `vm` compiles, which lose REPL mode's redeclarable
 * `let`/`const`; Node 20.20 has no flag-free hook for inspector-compiled code). `importModule` is
 * defined by the kernel's own script, which has a referrer (the workdir), so it resolves as a script
 * there would. Parsed with acorn, so `import(` inside a string, a comment or a regular expression stays
 * as written. Code acorn cannot parse is sent unchanged: V8 then reports its own syntax error, or
 * the error this works around. Columns after a rewritten `import` on the same line shift by 6 in
 * stack traces.
 */
export function rewriteDynamicImports(code: string): string {
  if (!code.includes("import")) return code;
  let program: ReturnType<typeof parse>;
  try {
    program = parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowHashBang: true,
      allowReturnOutsideFunction: false,
    });
  } catch {
    return code;
  }
  const starts: number[] = [];
  simple(program, {
    ImportExpression(node) {
      starts.push(node.start);
    },
  });
  if (starts.length === 0) return code;
  let rewritten = "";
  let from = 0;
  for (const start of starts.sort((left, right) => left - right)) {
    // The node starts at the keyword; an `import.defer(…)`/`import.source(…)` phase is left alone.
    if (code.slice(start, start + 6) !== "import" || /^import\s*\./.test(code.slice(start))) continue;
    rewritten += code.slice(from, start) + importer;
    from = start + "import".length;
  }
  return rewritten + code.slice(from);
}
