/** The position encodings of LSP 3.17; UTF-16 is the protocol's default. */
export type PositionEncoding = "utf-8" | "utf-16" | "utf-32";

/**
 * The LSP `character` for a place in a line, given as a JavaScript (UTF-16) string index, in the
 * encoding the server negotiated. clangd and rust-analyzer may choose UTF-8, where a CJK character is
 * 3 units and an emoji 4; in UTF-32 each code point is 1.
 */
export function characterInEncoding(lineText: string, utf16Index: number, encoding: PositionEncoding): number {
  if (encoding === "utf-16") return utf16Index;
  const before = lineText.slice(0, utf16Index);
  if (encoding === "utf-8") return Buffer.byteLength(before, "utf8");
  return [...before].length;
}

/** The JavaScript string index for an LSP `character` in `encoding` (the inverse of {@link characterInEncoding}). */
export function utf16IndexFromCharacter(lineText: string, character: number, encoding: PositionEncoding): number {
  if (encoding === "utf-16") return Math.min(character, lineText.length);
  let units = 0;
  let index = 0;
  for (const codePoint of lineText) {
    if (units >= character) break;
    units += encoding === "utf-8" ? Buffer.byteLength(codePoint, "utf8") : 1;
    index += codePoint.length;
  }
  return index;
}

/** The encoding to use from a server's `capabilities.positionEncoding` (absent or unknown → UTF-16). */
export function negotiatedEncoding(advertised: unknown): PositionEncoding {
  return advertised === "utf-8" || advertised === "utf-32" ? advertised : "utf-16";
}
