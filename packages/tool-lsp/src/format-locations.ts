import { displayPath, isInside, readFileInWorkdir } from "@runbound/runtime-kit";
import { fileURLToPath } from "node:url";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { readDependencyFile, type DependencyFiles } from "./dependency-files.js";
import { splitLines } from "./position-from-symbol.js";

/** One place an answer points to, ready to show. */
export interface ShownLocation {
  /** Workspace-relative path, or the absolute path for a file outside the workdir. */
  path: string;
  /** 1-based line. */
  line: number;
  /** The source line, trimmed; absent for unreadable files (or outside ones over 4 MB). */
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
    if (typeof uri === "string" && typeof line === "number" && Number.isInteger(line) && line >= 0)
      locations.push({ uri, line });
    else malformed += 1;
  }
  return { locations, malformed };
}

/** Options of {@link showLocations}. */
export interface ShowLocationsOptions {
  /** Show a place listed twice (servers repeat a declaration) once; default true. */
  dedupe?: boolean;
  /** Texts already read, by absolute path (the document the request was about), to read no file twice. */
  known?: ReadonlyMap<string, string>;
  /** The run's outside files: with it, source files outside the workdir are read (bounded) and remembered, so `source` may read them later; without it they are named only. */
  dependencies?: DependencyFiles;
}

function pathOf(uri: string): string | undefined {
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Where a URI points, as answers show it: workspace-relative inside the workdir, else absolute (or the URI itself). */
export function placePath(workdir: string, uri: string): { path?: string; shown: string; inside: boolean } {
  const path = pathOf(uri);
  if (path === undefined) return { shown: uri, inside: false };
  return isInside(workdir, path)
    ? { path, shown: displayPath(workdir, path), inside: true }
    : { path, shown: path, inside: false };
}

/**
 * Show locations as `path:line` plus the source line. Files inside the workdir are read through
 * tool-kit; source files outside (a library's `.d.ts`, the Go module cache, the standard library),
 * given `dependencies`, read-only and bounded; all at once and each once. Outside files are shown
 * by their absolute path.
 */
export async function showLocations(
  workdir: string,
  locations: ReadonlyArray<{ uri: string; line: number }>,
  options: ShowLocationsOptions = {},
): Promise<ShownLocation[]> {
  const dedupe = options.dedupe ?? true;
  const seen = new Set<string>();
  const places = locations.filter((location) => {
    const key = `${location.uri}:${location.line}`;
    if (dedupe && seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const paths = new Set(
    places.flatMap((place) => {
      const path = pathOf(place.uri);
      return path === undefined ? [] : [path];
    }),
  );
  const lines = new Map(
    await Promise.all(
      [...paths].map(async (path): Promise<[string, string[] | undefined]> => {
        const known = options.known?.get(path);
        if (known !== undefined) return [path, splitLines(known)];
        if (!isInside(workdir, path)) {
          if (options.dependencies === undefined) return [path, undefined];
          options.dependencies.remember(path);
          const text = await readDependencyFile(path, options.dependencies);
          return [path, text === undefined ? undefined : splitLines(text)];
        }
        const bytes = await readFileInWorkdir(workdir, path).catch(() => null);
        return [path, bytes === null ? undefined : splitLines(bytes.toString("utf8"))];
      }),
    ),
  );
  return places.map((place): ShownLocation => {
    const path = pathOf(place.uri);
    if (path === undefined) return { path: place.uri, line: place.line + 1 };
    const source = lines.get(path)?.[place.line]?.trim();
    return {
      path: isInside(workdir, path) ? displayPath(workdir, path) : path,
      line: place.line + 1,
      ...(source === undefined
        ? {}
        : { source: source.length > maxSourceLength ? `${source.slice(0, maxSourceLength - 1)}…` : source }),
    };
  });
}

/** `path:line: source` (or `path:line` without a source line). */
export function locationRow(location: ShownLocation): string {
  return location.source === undefined
    ? `${location.path}:${location.line}`
    : `${location.path}:${location.line}: ${location.source}`;
}
