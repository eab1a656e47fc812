import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The ast-grep CLI of @ast-grep/cli (its postinstall puts the platform's binary there). */
export const astGrepCli = join(
  dirname(createRequire(import.meta.url).resolve("@ast-grep/cli/package.json")),
  "ast-grep",
);

/** How many matches the CLI finds under `directory`: `run -p` for a pattern, `scan --inline-rules` for a rule. */
export function cliCount(args: string[], directory: string): number {
  const run = spawnSync(astGrepCli, [...args, "--json=stream", directory], { encoding: "utf8" });
  if (run.error !== undefined || run.status !== 0)
    throw new Error(`\`ast-grep ${args.join(" ")}\` failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout.split("\n").filter((line) => line.trim().length > 0).length;
}
