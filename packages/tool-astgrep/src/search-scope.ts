import { resolveInWorkdir } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";
import { realpath, stat } from "node:fs/promises";
import type { AstGrepParserInstance } from "./astgrep-parser.js";
import type { LanguageInfo } from "./language-info.js";
import { availableLanguageIds } from "./language-registry.js";

/** Where a search runs: the real workdir, the real root inside it, and the language if one was given. */
export interface SearchScope {
  workdir: string;
  root: string;
  language?: LanguageInfo;
}

/**
 * Resolve the `path` and `language` inputs shared by ast_grep and ast_edit.
 * @throws ToolError `outside_workdir` for a path leaving the workdir, `invalid_input` for an unknown language.
 */
export async function resolveSearchScope(
  parser: AstGrepParserInstance,
  workdir: string,
  path: string | undefined,
  language: string | undefined,
): Promise<SearchScope> {
  const realWorkdir = await realpath(workdir);
  const root = await resolveInWorkdir(realWorkdir, path ?? ".");
  if (
    !(await stat(root).then(
      () => true,
      () => false,
    ))
  ) {
    throw new ToolError({
      code: "not_found",
      message: `Path \`${path}\` does not exist in the working directory. Give an existing file or directory, relative to \`${realWorkdir}\`.`,
    });
  }
  if (language === undefined) return { workdir: realWorkdir, root };
  const info = parser.language(language);
  if (info === undefined) {
    const table = parser.languages();
    const missing = table.unavailable.map((entry) => `${entry.id} (${entry.reason})`).join("; ");
    throw new ToolError({
      code: "invalid_input",
      message: `Language \`${language}\` is not available. Use one of: ${availableLanguageIds(table).join(", ")}.${missing.length > 0 ? ` Not loaded here: ${missing}` : ""}`,
    });
  }
  return { workdir: realWorkdir, root, language: info };
}
