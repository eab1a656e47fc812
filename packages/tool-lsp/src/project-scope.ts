import { resolveInWorkdir } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { stat } from "node:fs/promises";

/**
 * Whether `file` asks for the project checkers rather than one file: `*` for every project in the
 * workdir, `<directory>/*` (or `/**`) for the projects in that directory or the one containing it.
 */
export function isProjectScope(file: string): boolean {
  return file.includes("*");
}

/**
 * The directory a project scope names (absolute, inside the workdir).
 * @throws ToolError `invalid_input` for another glob, `not_found` when the directory does not exist.
 */
export async function resolveProjectScope(workdir: string, file: string): Promise<string> {
  const match = /^(?:(.*?)\/)?\*\*?$/.exec(file);
  const directory = match === null ? undefined : (match[1] ?? ".");
  if (directory === undefined || directory.includes("*")) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`file\` \`${file}\` is neither a file nor a project scope. \`diagnostics\` takes one file (e.g. "src/app.ts"), "*" for every project's checker, or a directory followed by "/*" (e.g. "packages/app/*") for the projects in it.`,
    });
  }
  const path = await resolveInWorkdir(workdir, directory);
  const isDirectory = await stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) {
    throw new ToolError({
      code: "not_found",
      message: `\`${directory}\` (from \`file\` \`${file}\`) is not a directory in the working directory. Give "*" for every project, or an existing directory followed by "/*".`,
    });
  }
  return path;
}
