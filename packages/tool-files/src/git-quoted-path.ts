const escapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * Read a path as git writes it in diff headers: names with non-ASCII bytes, quotes or control
 * characters are C-quoted (`"a/\303\251t\303\251.txt"`, git's `core.quotePath`), others are plain.
 *
 * @returns the path and the rest of the text after it, or `undefined` when a quoted path is not closed.
 */
export function readGitPath(text: string): { path: string; rest: string } | undefined {
  if (!text.startsWith('"')) return { path: text, rest: "" };
  const bytes: number[] = [];
  for (let index = 1; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '"') return { path: Buffer.from(bytes).toString("utf8"), rest: text.slice(index + 1) };
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const next = text[index + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(text.slice(index + 1))?.[0];
    if (octal !== undefined) {
      bytes.push(parseInt(octal, 8));
      index += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return undefined;
}
