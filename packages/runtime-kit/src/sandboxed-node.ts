import { realpath } from "node:fs/promises";
import { basename, dirname, sep } from "node:path";
import { findExecutable, pathDirectories } from "./find-executable.js";

/**
 * What a sandboxed Node program (`node_modules/.bin/tsc`, a language server installed with npm) reads
 * of the host besides its own folder: the whole `node_modules` tree its script lies in (its
 * dependencies are hoisted anywhere in it) and the prefix of the `node` on `pathVariable`, which its
 * `#!/usr/bin/env node` line finds. Nothing for a program outside any `node_modules`.
 */
export async function sandboxedNodeProgramPaths(command: string, pathVariable: string | undefined): Promise<string[]> {
  const script = await realpath(command).catch(() => undefined);
  if (script === undefined) return [];
  const parts = script.split(sep);
  const outermost = parts.indexOf("node_modules");
  if (outermost < 0) return [];
  const paths = [parts.slice(0, outermost + 1).join(sep)];
  const node = await findExecutable(["node"], pathDirectories(pathVariable));
  const real = node === undefined ? undefined : await realpath(node).catch(() => undefined);
  // `<prefix>/bin/node`: the prefix holds its headers and bundled npm too; a bare binary elsewhere, its folder.
  if (real !== undefined) paths.push(basename(dirname(real)) === "bin" ? dirname(dirname(real)) : dirname(real));
  return paths;
}
