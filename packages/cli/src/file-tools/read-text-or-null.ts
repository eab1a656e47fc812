import { readFile } from "node:fs/promises";
import { ToolError } from "@runbound/tool-kit";

/**
 * A file's text, or `null` when it does not exist. A directory is the caller's mistake, not a bug in
 * the tool, so it is answered `invalid_input` naming the path (`shown`).
 */
export async function readTextOrNull(path: string, shown: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "EISDIR") throw new ToolError({ code: "invalid_input", message: `\`${shown}\` is a directory, not a file. Give the path of a file inside it.` });
    throw error;
  }
}
