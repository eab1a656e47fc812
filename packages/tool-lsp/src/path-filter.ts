import { resolveInWorkdir } from "@runbound/runtime-kit";
import { ToolError } from "@runbound/tool-kit";

/** Which places an answer keeps: those under a folder, or matching a glob, inside the workdir. */
export interface PathFilter {
  /** The filter as the caller wrote it, for headers. */
  readonly shown: string;
  /** Whether a workspace-relative path (`/` separators) passes. Paths outside the workdir never do. */
  matches(shownPath: string): boolean;
}

const globCharacters = /[*?[{]/;

/** `**` crosses folders, `*` and `?` stay within one, `{a,b}` is either; everything else is literal. */
function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (character === "*" && glob[index + 1] === "*") {
      const slash = glob[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 2 : 1;
    } else if (character === "*") source += "[^/]*";
    else if (character === "?") source += "[^/]";
    else if (character === "{") {
      const end = glob.indexOf("}", index);
      if (end === -1) source += "\\{";
      else {
        source += `(?:${glob
          .slice(index + 1, end)
          .split(",")
          .map((part) => part.replace(/[.+^$()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
          .join("|")})`;
        index = end;
      }
    } else source += character.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/**
 * Parse `path`: a folder or file inside the workdir (`src/extra`, `./src/`), or a glob over
 * workspace-relative paths (`src/**\/*.test.ts`, `**\/report.py`). The part before the first glob
 * character must stay inside the workdir.
 * @throws ToolError `outside_workdir` for a path that leaves it, `invalid_input` for an empty one.
 */
export async function parsePathFilter(workdir: string, path: string): Promise<PathFilter> {
  const trimmed = path.trim().replace(/^\.\/+/, "");
  if (trimmed.length === 0)
    throw new ToolError({
      code: "invalid_input",
      message:
        "`path` is empty. Give a folder (e.g. `src/extra`) or a glob (e.g. `src/**/*.ts`) inside the working directory, or leave `path` out.",
    });
  const globAt = trimmed.search(globCharacters);
  const literal = globAt === -1 ? trimmed : trimmed.slice(0, trimmed.lastIndexOf("/", globAt) + 1);
  const resolved = literal.length === 0 ? workdir : await resolveInWorkdir(workdir, literal);
  const relative = resolved === workdir ? "" : resolved.slice(workdir.length + 1);
  if (globAt === -1) {
    return {
      shown: path,
      matches: (shownPath) =>
        relative === "" ? !shownPath.startsWith("/") : shownPath === relative || shownPath.startsWith(`${relative}/`),
    };
  }
  const pattern = globToRegExp(`${relative === "" ? "" : `${relative}/`}${trimmed.slice(literal.length)}`);
  return { shown: path, matches: (shownPath) => !shownPath.startsWith("/") && pattern.test(shownPath) };
}
