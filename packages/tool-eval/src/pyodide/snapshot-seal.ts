import { createHash } from "node:crypto";

// A snapshot file is Pyodide's snapshot followed by this seal: 8 bytes of marker, the snapshot's length
// (64-bit little-endian) and its SHA-256. Pyodide itself only checks a magic number and its build id at
// the start, so a truncated or damaged file would be handed to the interpreter as its memory.
const MARKER = new TextEncoder().encode("rbsnap1\n");
const LENGTH_BYTES = 8;
const DIGEST_BYTES = 32;

/** How many bytes the seal adds after the snapshot. */
export const SEAL_BYTES = MARKER.length + LENGTH_BYTES + DIGEST_BYTES;

function digest(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}

/** The seal to write right after `snapshot` in its file. */
export function sealOf(snapshot: Uint8Array): Uint8Array {
  const seal = new Uint8Array(SEAL_BYTES);
  seal.set(MARKER, 0);
  new DataView(seal.buffer).setBigUint64(MARKER.length, BigInt(snapshot.length), true);
  seal.set(digest(snapshot), MARKER.length + LENGTH_BYTES);
  return seal;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(right);
}

/**
 * The snapshot inside a sealed file's bytes (a view, not a copy), or why the file cannot be one: too
 * short, not sealed (truncated, or written by something else), a length or digest that does not match.
 */
export function unsealSnapshot(file: Uint8Array): { snapshot: Uint8Array } | { problem: string } {
  if (file.length < SEAL_BYTES)
    return { problem: `it is ${file.length} bytes long, shorter than its own ${SEAL_BYTES}-byte seal` };
  const sealAt = file.length - SEAL_BYTES;
  if (!sameBytes(file.subarray(sealAt, sealAt + MARKER.length), MARKER))
    return { problem: "it does not end with its seal (it was cut short, or not written by this kernel)" };
  const declared = new DataView(file.buffer, file.byteOffset + sealAt + MARKER.length, LENGTH_BYTES).getBigUint64(
    0,
    true,
  );
  if (declared !== BigInt(sealAt))
    return { problem: `its seal says ${declared} bytes of snapshot, but ${sealAt} precede it` };
  const snapshot = file.subarray(0, sealAt);
  if (!sameBytes(digest(snapshot), file.subarray(sealAt + MARKER.length + LENGTH_BYTES)))
    return { problem: "its contents do not match their SHA-256 digest (the file is damaged)" };
  return { snapshot };
}
