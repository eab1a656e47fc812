import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";

/** A pure-Python wheel to build: its distribution name, version and files (path → text). */
export interface TestWheel {
  name: string;
  version: string;
  files: Record<string, string>;
}

// A zip of stored (uncompressed) entries: local headers, then the central directory, then its end record.
function zip(entries: Array<[path: string, data: Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, data] of entries) {
    const name = Buffer.from(path, "utf8");
    const checksum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Write `<name>-<version>-py3-none-any.whl` into `folder` (no network, no build tool); returns its path. */
export async function buildWheel(folder: string, wheel: TestWheel): Promise<string> {
  const distInfo = `${wheel.name}-${wheel.version}.dist-info`;
  const entries: Array<[string, Buffer]> = [
    ...Object.entries(wheel.files).map(([path, text]): [string, Buffer] => [path, Buffer.from(text, "utf8")]),
    [
      `${distInfo}/METADATA`,
      Buffer.from(`Metadata-Version: 2.1\nName: ${wheel.name}\nVersion: ${wheel.version}\n`, "utf8"),
    ],
    [
      `${distInfo}/WHEEL`,
      Buffer.from("Wheel-Version: 1.0\nGenerator: runbound-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n", "utf8"),
    ],
  ];
  entries.push([
    `${distInfo}/RECORD`,
    Buffer.from(`${entries.map(([path]) => `${path},,`).join("\n")}\n${distInfo}/RECORD,,\n`, "utf8"),
  ]);
  const path = join(folder, `${wheel.name}-${wheel.version}-py3-none-any.whl`);
  await writeFile(path, zip(entries));
  return path;
}
