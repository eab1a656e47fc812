// The peer side: raw python3 driven directly over its stdin/stdout, one JSON line per cell, with the
// same exec/eval split of the last expression the kernel does, and nothing else (no output capture,
// no display, no channel moved off stdout).
import { spawn } from "node:child_process";
import { driveLineChild } from "./line-child.mjs";

const loop = `
import ast, json, sys
namespace = {"__name__": "__main__"}
sys.stdout.write("ready\\n"); sys.stdout.flush()
for line in sys.stdin:
    tree = ast.parse(json.loads(line))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    value = None if last is None else eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    sys.stdout.write(json.dumps(repr(value)) + "\\n"); sys.stdout.flush()
`;

/** Start `python` on the loop; resolves once it printed "ready". */
export async function startRawPython(python) {
  const child = spawn(python, ["-c", loop], { stdio: ["pipe", "pipe", "inherit"] });
  return driveLineChild(child);
}
