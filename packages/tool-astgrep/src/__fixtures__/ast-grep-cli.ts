import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
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

/** `file` after `ast-grep scan --rule <ruleFile> -U`: the rule file whole (with `id` and `language`). */
export function rewrittenByCli(ruleFile: string, file: string, source: string): string {
  const directory = mkdtempSync(join(tmpdir(), "runbound-astgrep-cli-"));
  try {
    writeFileSync(join(directory, file), source);
    writeFileSync(join(directory, "rule.yml"), ruleFile);
    const run = spawnSync(astGrepCli, ["scan", "--rule", join(directory, "rule.yml"), "-U", join(directory, file)], {
      encoding: "utf8",
    });
    if (run.error !== undefined || run.status !== 0)
      throw new Error(`ast-grep scan -U failed: ${run.error?.message ?? run.stderr}`);
    return readFileSync(join(directory, file), "utf8");
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Why the CLI refuses a rule file (`ast-grep scan --inline-rules`), or undefined when it takes it. */
export function cliRefusal(ruleFile: string, directory: string): string | undefined {
  const run = spawnSync(astGrepCli, ["scan", "--inline-rules", ruleFile, "--json=stream", directory], {
    encoding: "utf8",
  });
  if (run.error !== undefined) throw run.error;
  return run.status === 0 ? undefined : run.stderr;
}
