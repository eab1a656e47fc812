import { ToolError } from "@runbound/tool-kit";
import { readGitPath } from "./git-quoted-path.js";

/** What git says about one file before (or instead of) its `---`/`+++` lines. */
export interface GitHeader {
  /** The `diff --git a/… b/…` line, without its prefix. */
  line: string;
  /** Its 1-based line number in the patch. */
  lineNumber: number;
  from?: string;
  to?: string;
  copy: boolean;
  created: boolean;
  deleted: boolean;
  newMode?: string;
  binary: boolean;
}

export function invalidPatch(problem: string): ToolError {
  return new ToolError({
    code: "invalid_input",
    message: `The patch is not a valid unified diff: ${problem} Send a unified diff with \`--- a/path\`, \`+++ b/path\` and \`@@ -l,n +l,n @@\` hunks.`,
  });
}

export function stripPrefix(path: string, prefix: "a/" | "b/"): string {
  return path.startsWith(prefix) ? path.slice(2) : path;
}

/** Every way to read `diff --git X Y` as an (old, new) pair: unquoted names with spaces make the split ambiguous. */
function gitLineReadings(text: string): Array<[string, string]> {
  if (text.startsWith('"')) {
    const first = readGitPath(text);
    if (first === undefined || !first.rest.startsWith(" ")) return [];
    const second = readGitPath(first.rest.slice(1));
    return second === undefined ? [] : [[stripPrefix(first.path, "a/"), stripPrefix(second.path, "b/")]];
  }
  const readings: Array<[string, string]> = [];
  for (let space = text.indexOf(" "); space !== -1; space = text.indexOf(" ", space + 1)) {
    const right = text.slice(space + 1);
    const second = right.startsWith('"') ? readGitPath(right) : { path: right, rest: "" };
    if (second !== undefined && second.rest === "")
      readings.push([stripPrefix(text.slice(0, space), "a/"), stripPrefix(second.path, "b/")]);
  }
  return readings;
}

/** The file the `diff --git` line names when both sides name the same one (the only case git leaves unambiguous). */
export function gitLinePath(header: GitHeader): string | undefined {
  return gitLineReadings(header.line).find(([oldPath, newPath]) => oldPath === newPath)?.[0];
}

export function readGitHeader(lines: readonly string[], start: number): { header: GitHeader; next: number } {
  const header: GitHeader = {
    line: lines[start]!.replace(/\r$/, "").slice("diff --git ".length),
    lineNumber: start + 1,
    copy: false,
    created: false,
    deleted: false,
    binary: false,
  };
  let index = start + 1;
  for (; index < lines.length; index += 1) {
    const line = lines[index]!.replace(/\r$/, "");
    // A section without `---`/`+++` lines may run into hunk lines, which no header line below can match.
    if (line.startsWith("diff --git ") || line.startsWith("--- ")) break;
    const named = /^(rename|copy) (from|to) (.*)$/.exec(line);
    if (named !== null) {
      const path = readGitPath(named[3]!)?.path ?? named[3]!;
      if (named[2] === "from") header.from = path;
      else header.to = path;
      if (named[1] === "copy") header.copy = true;
    } else if (line.startsWith("new file mode ")) header.created = true;
    else if (line.startsWith("deleted file mode ")) header.deleted = true;
    else if (line.startsWith("new mode ")) header.newMode = line.slice("new mode ".length);
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") header.binary = true;
  }
  return { header, next: index };
}

function shown(path: string | null): string {
  return path === null ? "/dev/null" : path;
}

/**
 * Refuse a git section whose own lines name different files, as `git apply` does ("inconsistent old
 * filename"): applying it would change one file with another's hunks. We go further than git in one
 * case: git trusts `---`/`+++` over a `diff --git` line naming another file, but such a patch is
 * ambiguous, so it is refused too.
 */
export function checkGitNames(header: GitHeader, oldPath: string | null, newPath: string | null): void {
  const at = `in the \`diff --git\` section on line ${header.lineNumber},`;
  if (header.created && oldPath !== null)
    throw invalidPatch(
      `${at} the file is created (\`new file mode\`), but the \`---\` line names \`${oldPath}\` instead of /dev/null.`,
    );
  if (header.deleted && newPath !== null)
    throw invalidPatch(
      `${at} the file is deleted (\`deleted file mode\`), but the \`+++\` line names \`${newPath}\` instead of /dev/null.`,
    );
  const kind = header.copy ? "copy" : "rename";
  if (header.from !== undefined && oldPath !== header.from)
    throw invalidPatch(
      `${at} \`${kind} from\` names \`${header.from}\`, but the \`---\` line names \`${shown(oldPath)}\`. Make both name the same file.`,
    );
  if (header.to !== undefined && newPath !== header.to)
    throw invalidPatch(
      `${at} \`${kind} to\` names \`${header.to}\`, but the \`+++\` line names \`${shown(newPath)}\`. Make both name the same file.`,
    );
  // git names a created or deleted file on both sides of its `diff --git` line.
  const expectedOld = oldPath ?? newPath;
  const expectedNew = newPath ?? oldPath;
  if (!gitLineReadings(header.line).some(([left, right]) => left === expectedOld && right === expectedNew)) {
    throw invalidPatch(
      `${at} \`diff --git ${header.line}\` names other files than its \`---\` and \`+++\` lines (\`${shown(oldPath)}\` and \`${shown(newPath)}\`). Make them name the same files.`,
    );
  }
}
