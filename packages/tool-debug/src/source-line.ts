import { readFileSync, statSync } from "node:fs";
import { cutText, isInside } from "@runbound/runtime-kit";

// Files larger than this are not read for a stop's source line (a generated file of megabytes).
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * The text of line `line` (1-based) of a file inside the workdir, cut at 200 characters; nothing for
 * files outside it or too large. Read synchronously, at every stop: a read through the thread pool
 * waits behind any other file work queued there (tens of ms on a busy machine), more than the step
 * itself, while a synchronous read of a source file costs tens of microseconds. Only the line's own
 * bytes are decoded (a newline byte never occurs inside a UTF-8 sequence), so a stop late in a 4 MiB
 * file costs a few milliseconds, and nothing is kept between stops.
 */
export function sourceLine(
  workdir: string,
  path: string | undefined,
  line: number | undefined,
  alsoReadable?: ReadonlySet<string>,
): string | undefined {
  return sourceLines(workdir, path, line, 0, alsoReadable)?.[0]?.text;
}

/**
 * Lines `line - radius` … `line + radius` (those that exist) of a file inside the workdir, or of a file
 * in `alsoReadable` (dependency files the caller set breakpoints in: read-only access, issue 26),
 * each cut at 200 characters; undefined when `line` itself is not there.
 */
export function sourceLines(
  workdir: string,
  path: string | undefined,
  line: number | undefined,
  radius: number,
  alsoReadable?: ReadonlySet<string>,
): Array<{ line: number; text: string }> | undefined {
  if (path === undefined || line === undefined || !Number.isInteger(line) || line < 1) return undefined;
  if (!isInside(workdir, path) && alsoReadable?.has(path) !== true) return undefined;
  const bytes = fileBytes(path);
  if (bytes === undefined) return undefined;
  const first = Math.max(1, line - radius);
  let start = 0;
  for (let passed = 1; passed < first; passed++) {
    const newline = bytes.indexOf(NEWLINE, start);
    if (newline === -1) return undefined;
    start = newline + 1;
  }
  const rows: Array<{ line: number; text: string }> = [];
  for (let current = first; current <= line + radius; current++) {
    // The empty "line" after a final newline is shown only when it is the one asked for.
    if (start > bytes.length || (start === bytes.length && current > line)) break;
    const end = bytes.indexOf(NEWLINE, start);
    // The line after a final newline is an empty last line, as splitting the text would give.
    rows.push({
      line: current,
      text: cutText(bytes.toString("utf8", start, end === -1 ? bytes.length : end).trimEnd(), 200).text,
    });
    if (end === -1) break;
    start = end + 1;
  }
  return rows.some((row) => row.line === line) ? rows : undefined;
}

function fileBytes(path: string): Buffer | undefined {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_SOURCE_BYTES) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
