/** The rules of one `.gitignore` file, matched against paths relative to its directory. */
export interface GitignoreRules {
  /** `true` ignored, `false` re-included by a `!` rule, `undefined` no rule matched. */
  match(relativePath: string, isDirectory: boolean): boolean | undefined;
}

interface Rule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

function globToRegexSource(glob: string): string {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const atStart = index === 0 || glob[index - 1] === "/";
        const atEnd = index + 2 === glob.length;
        if (atStart && glob[index + 2] === "/") {
          source += "(?:.*/)?";
          index += 2;
          continue;
        }
        if (atStart && atEnd) {
          source += ".*";
          index += 1;
          continue;
        }
        source += "[^/]*";
        index += 1;
        continue;
      }
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const close = glob.indexOf("]", index + 2);
      if (close === -1) {
        source += "\\[";
      } else {
        let body = glob.slice(index + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        source += `[${body.replaceAll("\\", "\\\\")}]`;
        index = close;
      }
    } else if (char === "\\" && index + 1 < glob.length) {
      index += 1;
      source += glob[index]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  return source;
}

function parseLine(rawLine: string): Rule | undefined {
  let line = rawLine.replace(/\r$/, "");
  if (line.length === 0 || line.startsWith("#")) return undefined;
  // Trailing spaces are dropped unless escaped with a backslash.
  line = line.replace(/(?<!\\)\s+$/, "");
  let negated = false;
  if (line.startsWith("!")) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  }
  let directoryOnly = false;
  if (line.endsWith("/")) {
    directoryOnly = true;
    line = line.slice(0, -1);
  }
  if (line.length === 0) return undefined;
  // A slash anywhere but at the end anchors the pattern to the .gitignore's directory;
  // without one it matches a name at any depth.
  const anchored = line.includes("/");
  if (line.startsWith("/")) line = line.slice(1);
  const body = globToRegexSource(line);
  const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
  return { regex, negated, directoryOnly };
}

/** Parse the text of a `.gitignore` file (negation, anchoring, `**`, character classes, directory-only rules). */
export function parseGitignore(text: string): GitignoreRules {
  const rules = text.split("\n").map(parseLine).filter((rule): rule is Rule => rule !== undefined);
  return {
    match(relativePath, isDirectory) {
      let verdict: boolean | undefined;
      for (const rule of rules) {
        if (rule.directoryOnly && !isDirectory) continue;
        if (rule.regex.test(relativePath)) verdict = !rule.negated;
      }
      return verdict;
    },
  };
}
