import { displayPath, isInside, readFileInWorkdir } from "@runbound/tool-kit";
import { fileURLToPath } from "node:url";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { splitLines } from "./position-from-symbol.js";

/** One place an answer points to, ready to show. */
export interface ShownLocation {
  /** Workspace-relative path, or the absolute path for a file outside the workdir. */
  path: string;
  /** 1-based line. */
  line: number;
  /** The source line, trimmed; absent for files outside the workdir (never read) or unreadable ones. */
  source?: string;
}

const maxSourceLength = 200;

/**
 * The places in a definition-like answer: `Location`, `Location[]`, `LocationLink[]` or null. Entries
 * of another shape are counted in `malformed` rather than trusted.
 */
export function locationsOf(answer: unknown): { locations: Array<{ uri: string; line: number }>; malformed: number } {
  const items = answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer];
  const locations: Array<{ uri: string; line: number }> = [];
  let malformed = 0;
  for (const item of items as Array<Partial<Location & LocationLink>>) {
    const uri = item?.targetUri ?? item?.uri;
    const range = item?.targetSelectionRange ?? item?.targetRange ?? item?.range;
    const line = range?.start?.line;
    if (typeof uri === "string" && typeof line === "number" && Number.isInteger(line) && line >= 0) locations.push({ uri, line });
    else malformed += 1;
  }
  return { locations, malformed };
}

/**
 * Show locations as `path:line` plus the source line. Files inside the workdir are read through
 * tool-kit (once each); files outside (a library's `.d.ts`, the standard library) are named, never read.
 * With `dedupe`, a place listed twice (servers repeat a declaration) is shown once.
 */
export async function showLocations(workdir: string, locations: ReadonlyArray<{ uri: string; line: number }>, options: { dedupe: boolean } = { dedupe: true }): Promise<ShownLocation[]> {
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (path: string): Promise<string[] | undefined> => {
    let lines = files.get(path);
    if (lines === undefined) {
      lines = readFileInWorkdir(workdir, path).then(
        (bytes) => (bytes === null ? undefined : splitLines(bytes.toString("utf8"))),
        () => undefined,
      );
      files.set(path, lines);
    }
    return lines;
  };
  const seen = new Set<string>();
  const shown: ShownLocation[] = [];
  for (const location of locations) {
    const key = `${location.uri}:${location.line}`;
    if (options.dedupe && seen.has(key)) continue;
    seen.add(key);
    let path: string;
    try {
      path = fileURLToPath(location.uri);
    } catch {
      shown.push({ path: location.uri, line: location.line + 1 });
      continue;
    }
    if (!isInside(workdir, path)) {
      shown.push({ path, line: location.line + 1 });
      continue;
    }
    const source = (await linesOf(path))?.[location.line]?.trim();
    shown.push({ path: displayPath(workdir, path), line: location.line + 1, ...(source === undefined ? {} : { source: source.length > maxSourceLength ? `${source.slice(0, maxSourceLength - 1)}…` : source }) });
  }
  return shown;
}

/** `path:line: source` (or `path:line` without a source line). */
export function locationRow(location: ShownLocation): string {
  return location.source === undefined ? `${location.path}:${location.line}` : `${location.path}:${location.line}: ${location.source}`;
}
