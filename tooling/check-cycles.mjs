// No import cycles in any package's source: madge over each packages/*/src with that package's
// tsconfig, type-only imports included (a cycle of types still ties two files together).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import madge from "madge";

const root = process.argv[2] ?? process.cwd();
let cycles = 0;
for (const name of readdirSync(join(root, "packages")).sort()) {
  const source = join(root, "packages", name, "src");
  const tsConfig = join(root, "packages", name, "tsconfig.json");
  if (!existsSync(source)) continue;
  const graph = await madge(source, {
    fileExtensions: ["ts"],
    ...(existsSync(tsConfig) ? { tsConfig } : {}),
    // Other packages are reached through their built declarations: a cycle there belongs to that package.
    excludeRegExp: [/\.d\.ts$/, /(^|\/)dist\//, /node_modules/],
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  for (const cycle of graph.circular()) {
    cycles += 1;
    console.log(`packages/${name}/src: ${cycle.join(" > ")}`);
  }
}
console.log(
  cycles === 0
    ? "No import cycles in packages/*/src."
    : `${cycles} import cycle${cycles === 1 ? "" : "s"} in packages/*/src.`,
);
process.exitCode = cycles === 0 ? 0 : 1;
