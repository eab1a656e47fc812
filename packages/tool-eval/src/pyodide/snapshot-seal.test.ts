import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SEAL_BYTES, sealOf, unsealSnapshot } from "./snapshot-seal.js";

const snapshot = Uint8Array.from({ length: 1_000 }, (_, index) => (index * 31) % 251);

function sealed(bytes: Uint8Array): Uint8Array {
  const file = new Uint8Array(bytes.length + SEAL_BYTES);
  file.set(bytes);
  file.set(sealOf(bytes), bytes.length);
  return file;
}

describe("snapshot seals", () => {
  it("lays the seal out as marker, little-endian length and SHA-256", () => {
    const seal = sealOf(snapshot);
    expect(SEAL_BYTES).toBe(48);
    expect(seal).toHaveLength(48);
    expect(new TextDecoder().decode(seal.subarray(0, 8))).toBe("rbsnap1\n");
    expect([...seal.subarray(8, 16)]).toEqual([0xe8, 0x03, 0, 0, 0, 0, 0, 0]);
    expect(Buffer.from(seal.subarray(16)).toString("hex")).toBe(createHash("sha256").update(snapshot).digest("hex"));
  });

  it("gives back a view of the snapshot in a sealed file", () => {
    const file = sealed(snapshot);
    const opened = unsealSnapshot(file);
    expect(opened).toEqual({ snapshot });
    expect("snapshot" in opened && opened.snapshot.buffer).toBe(file.buffer);
  });

  it("opens a sealed empty snapshot, and one inside a larger buffer", () => {
    expect(unsealSnapshot(sealOf(new Uint8Array(0)))).toEqual({ snapshot: new Uint8Array(0) });
    const outer = new Uint8Array(snapshot.length + SEAL_BYTES + 16);
    outer.set(sealed(snapshot), 8);
    expect(unsealSnapshot(outer.subarray(8, 8 + snapshot.length + SEAL_BYTES))).toEqual({ snapshot });
  });

  it("refuses a file shorter than a seal", () => {
    expect(unsealSnapshot(new Uint8Array(47))).toEqual({
      problem: "it is 47 bytes long, shorter than its own 48-byte seal",
    });
  });

  it("refuses a file cut short, and one never sealed", () => {
    const problem = "it does not end with its seal (it was cut short, or not written by this kernel)";
    const file = sealed(snapshot);
    expect(unsealSnapshot(file.subarray(0, file.length - 1))).toEqual({ problem });
    expect(unsealSnapshot(file.subarray(0, 600))).toEqual({ problem });
    expect(unsealSnapshot(snapshot)).toEqual({ problem });
  });

  it("refuses a seal whose marker differs in its last byte only", () => {
    const file = sealed(snapshot);
    file[snapshot.length + 7] = 0;
    expect(unsealSnapshot(file)).toMatchObject({ problem: expect.stringContaining("does not end with its seal") });
  });

  it("refuses a seal whose length is not what precedes it", () => {
    const file = sealed(snapshot);
    file[snapshot.length + 8] = 0xe9;
    expect(unsealSnapshot(file)).toEqual({ problem: "its seal says 1001 bytes of snapshot, but 1000 precede it" });
    const high = sealed(snapshot);
    high[snapshot.length + 15] = 1;
    expect(unsealSnapshot(high)).toEqual({
      problem: `its seal says ${2n ** 56n + 1000n} bytes of snapshot, but 1000 precede it`,
    });
  });

  it("refuses a snapshot with one byte changed, first or last", () => {
    for (const index of [0, snapshot.length - 1]) {
      const file = sealed(snapshot);
      file[index] = file[index]! ^ 1;
      expect(unsealSnapshot(file)).toEqual({
        problem: "its contents do not match their SHA-256 digest (the file is damaged)",
      });
    }
    const lastDigestByte = sealed(snapshot);
    lastDigestByte[lastDigestByte.length - 1] = lastDigestByte.at(-1)! ^ 1;
    expect(unsealSnapshot(lastDigestByte)).toMatchObject({ problem: expect.stringContaining("SHA-256") });
  });
});
