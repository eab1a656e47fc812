import { isUtf8 } from "node:buffer";
import { isInside } from "@runbound/runtime-kit";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
} from "node:fs";
import { join } from "node:path";
import { codeFieldOf, errorCodeOf, type SkipReason } from "./skip-ledger.js";

/** A file that was not read, and why. */
export interface Unsearchable {
  reason: SkipReason;
  code?: string;
}

/** A file read for searching, with the status of the very descriptor it was read through. */
export interface SearchableFile {
  bytes: Buffer;
  stats: Stats;
}

/** Whether a {@link readSearchableFile} answer is the file's content (else it says why the file is skipped). */
export function isSearchable(read: SearchableFile | Unsearchable): read is SearchableFile {
  return "bytes" in read;
}

// O_NONBLOCK: a file swapped for a FIFO after the walk must not block the open; O_NOFOLLOW: nor may a
// file swapped for a symlink be followed (out of the workdir).
const openFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * A directory that names every open descriptor of this process (Linux, and the BSDs and macOS); a
 * path through it opens the very file the descriptor holds, and reading its link gives that file's
 * real path, whatever has happened to the path it was opened by.
 */
export const descriptorDirectory = ["/proc/self/fd", "/dev/fd"].find(
  (directory) => process.platform !== "win32" && existsSync(directory),
);

/** Where an open descriptor's file really is, when the platform says (`/dev/fd` names no link target). */
function realPathOfDescriptor(descriptor: number): string | undefined {
  if (descriptorDirectory !== "/proc/self/fd") return undefined;
  try {
    return readlinkSync(join(descriptorDirectory, String(descriptor)));
  } catch {
    return undefined;
  }
}

/** A regular file opened for searching (the caller closes `descriptor`). */
export interface OpenedFile {
  descriptor: number;
  stats: Stats;
}

/**
 * Open a file for searching without following a symlink or blocking on a FIFO; anything but a
 * regular file is refused, and so is one that turns out to lie outside `workdir` (a directory on its
 * path swapped for a symlink after the walk: O_NOFOLLOW guards only the last component).
 */
export function openRegularFile(path: string, workdir: string): OpenedFile | Unsearchable {
  let descriptor: number;
  try {
    descriptor = openSync(path, openFlags);
  } catch (error) {
    const code = errorCodeOf(error);
    return { reason: code === "ELOOP" ? "symlink" : "unreadable", ...codeFieldOf(error) };
  }
  try {
    const stats = fstatSync(descriptor);
    const real = realPathOfDescriptor(descriptor);
    const refusal: Unsearchable | undefined = !stats.isFile()
      ? { reason: "not_regular" }
      : real !== undefined && !isInside(workdir, real)
        ? { reason: "outside_workdir" }
        : undefined;
    if (refusal === undefined) return { descriptor, stats };
    closeSync(descriptor);
    return refusal;
  } catch (error) {
    closeSync(descriptor);
    return { reason: "unreadable", ...codeFieldOf(error) };
  }
}

/**
 * Read a file for searching: its bytes, or why it is skipped. Over-size files are refused from
 * their size alone; binary (a NUL in the first 8 KB, as git decides) and non-UTF-8 files are refused
 * because napi would skip them silently (research astgrep.md §0.8); anything but a regular file is
 * refused before a byte is read, and so is one outside `workdir` (see {@link openRegularFile}).
 */
export function readSearchableFile(path: string, workdir: string, maxBytes: number): SearchableFile | Unsearchable {
  const opened = openRegularFile(path, workdir);
  if (!("descriptor" in opened)) return opened;
  const { descriptor, stats } = opened;
  try {
    const size = stats.size;
    if (size > maxBytes) return { reason: "too_large" };
    const buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(descriptor, buffer, offset, size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    const bytes = offset === size ? buffer : buffer.subarray(0, offset);
    if (bytes.subarray(0, 8000).includes(0)) return { reason: "binary" };
    if (!isUtf8(bytes)) return { reason: "not_utf8" };
    return { bytes, stats };
  } catch (error) {
    return { reason: "unreadable", ...codeFieldOf(error) };
  } finally {
    closeSync(descriptor);
  }
}

/** A file's bytes as a search reads them (see {@link readSearchableFile}), or `undefined` when a search would skip it. */
export function searchableBytes(path: string, workdir: string, maxBytes: number): Buffer | undefined {
  const read = readSearchableFile(path, workdir, maxBytes);
  return isSearchable(read) ? read.bytes : undefined;
}

/** Whether the bytes start with a UTF-8 byte order mark. */
export function hasBom(bytes: Buffer): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** A path's status without following a symlink, or `undefined` when it is gone or cannot be stat'ed. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
