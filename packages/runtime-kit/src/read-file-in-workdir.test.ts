import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rename, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolErrorOf } from "./__fixtures__/tool-error-of.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectInWorkdir, listDirectoryInWorkdir, readFileInWorkdir } from "./read-file-in-workdir.js";
import { writeFilesAtomically } from "./write-files-atomically.js";

let workdir: string;
let outside: string;
let server: Server | undefined;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-read-")));
  workdir = join(base, "work");
  outside = join(base, "outside");
  await mkdir(join(workdir, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workdir, "src", "a.ts"), "a");
  await writeFile(join(outside, "a.ts"), "secret");
});

afterEach(async () => {
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
});

describe("readFileInWorkdir", () => {
  it("reads a regular file, and answers null when it or its directory does not exist", async () => {
    expect((await readFileInWorkdir(workdir, join(workdir, "src", "a.ts")))?.toString()).toBe("a");
    expect(await readFileInWorkdir(workdir, join(workdir, "src", "none.ts"))).toBeNull();
    expect(await readFileInWorkdir(workdir, join(workdir, "nodir", "none.ts"))).toBeNull();
    // Reading creates nothing on the way.
    expect(await inspectInWorkdir(workdir, join(workdir, "nodir"))).toBeNull();
  });

  it("refuses a device", async () => {
    execFileSync("mknod", [join(workdir, "null-device"), "c", "1", "3"]);
    expect((await toolErrorOf(readFileInWorkdir(workdir, join(workdir, "null-device")))).message).toContain(
      "`null-device` is a device, not a regular file",
    );
  });

  it("refuses a directory, a named pipe and a socket without blocking, naming the path", async () => {
    execFileSync("mkfifo", [join(workdir, "pipe")]);
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(join(workdir, "sock"), resolve));
    const directory = await toolErrorOf(readFileInWorkdir(workdir, join(workdir, "src")));
    expect([directory.code, directory.message]).toEqual([
      "invalid_input",
      "`src` is a directory, not a file. Give the path of a file inside it.",
    ]);
    const pipe = await toolErrorOf(readFileInWorkdir(workdir, join(workdir, "pipe")));
    expect([pipe.code, pipe.message]).toEqual([
      "invalid_input",
      "`pipe` is a named pipe, not a regular file; only regular files can be read or written. Give the path of a regular file.",
    ]);
    expect(
      (await toolErrorOf(readFileInWorkdir(workdir, join(workdir, "sock"), { shown: "the socket" }))).message,
    ).toContain("`the socket` is a socket, not a regular file");
  });

  it("refuses a file over maxBytes and reads one of exactly maxBytes", async () => {
    await writeFile(join(workdir, "two-mib.bin"), Buffer.alloc(2 * 1024 * 1024, 97));
    expect(
      (await readFileInWorkdir(workdir, join(workdir, "two-mib.bin"), { maxBytes: 2 * 1024 * 1024 }))?.length,
    ).toBe(2 * 1024 * 1024);
    const tooBig = await toolErrorOf(
      readFileInWorkdir(workdir, join(workdir, "two-mib.bin"), { maxBytes: 2 * 1024 * 1024 - 1 }),
    );
    expect([tooBig.code, tooBig.message]).toEqual([
      "invalid_input",
      "`two-mib.bin` is 2 MiB; files up to 2 MiB can be used here. Use a smaller file.",
    ]);
  });

  it("never reads through a symlink swapped in after the path was resolved", async () => {
    const resolved = join(workdir, "src", "a.ts");
    await rename(join(workdir, "src"), join(workdir, "src.moved"));
    await symlink(outside, join(workdir, "src"));
    const swappedDirectory = await toolErrorOf(readFileInWorkdir(workdir, resolved));
    expect(swappedDirectory.code).toBe("outside_workdir");
    await rename(join(workdir, "src.moved", "a.ts"), join(workdir, "src.moved", "b.ts"));
    await symlink(join(outside, "a.ts"), join(workdir, "src.moved", "a.ts"));
    const swappedFile = await toolErrorOf(readFileInWorkdir(workdir, join(workdir, "src.moved", "a.ts")));
    expect(swappedFile.message).toContain("`src.moved/a.ts` is a symbolic link, not a regular file");
  });

  it("maps a name too long to invalid_input instead of answering that the file is absent", async () => {
    const error = await toolErrorOf(
      readFileInWorkdir(workdir, join(workdir, `${"n".repeat(300)}.txt`), { shown: "long.txt" }),
    );
    expect([error.code, error.message]).toEqual([
      "invalid_input",
      "`long.txt` is too long for the file system (a name has at most 255 bytes, a path 4096). Use a shorter path.",
    ]);
  });
});

describe("inspectInWorkdir and listDirectoryInWorkdir", () => {
  it("inspects the workdir itself, files, missing paths and links without following them", async () => {
    await symlink(outside, join(workdir, "escape"));
    expect((await inspectInWorkdir(workdir, workdir))?.isDirectory()).toBe(true);
    expect((await inspectInWorkdir(workdir, join(workdir, "src", "a.ts")))?.size).toBe(1);
    expect(await inspectInWorkdir(workdir, join(workdir, "src", "none"))).toBeNull();
    expect((await inspectInWorkdir(workdir, join(workdir, "escape")))?.isSymbolicLink()).toBe(true);
    expect((await toolErrorOf(inspectInWorkdir(workdir, join(workdir, `${"n".repeat(300)}`)))).code).toBe(
      "invalid_input",
    );
  });

  it("lists a directory through its handle, and says when it is missing or a file", async () => {
    expect((await listDirectoryInWorkdir(workdir, join(workdir, "src"))).map((entry) => entry.name)).toEqual(["a.ts"]);
    expect((await listDirectoryInWorkdir(workdir, workdir)).map((entry) => entry.name)).toEqual(["src"]);
    const missing = await toolErrorOf(listDirectoryInWorkdir(workdir, join(workdir, "gone")));
    expect([missing.code, missing.message]).toEqual([
      "not_found",
      "`gone` does not exist. Check the path; it is relative to the working directory.",
    ]);
    expect((await toolErrorOf(listDirectoryInWorkdir(workdir, join(workdir, "src", "a.ts")))).code).toBe(
      "invalid_input",
    );
  });
});

describe("confined file access holds no descriptor after it answers", () => {
  it("closes every handle it opened, on success and on failure", async () => {
    execFileSync("mkfifo", [join(workdir, "pipe")]);
    const open = () => readdirSync("/proc/self/fd").length;
    // Warm up whatever the runtime opens lazily on first use.
    await readFileInWorkdir(workdir, join(workdir, "src", "a.ts"));
    const before = open();
    for (let round = 0; round < 20; round++) {
      await readFileInWorkdir(workdir, join(workdir, "src", "a.ts"));
      await readFileInWorkdir(workdir, join(workdir, "pipe")).catch(() => undefined);
      await inspectInWorkdir(workdir, join(workdir, "src", "a.ts"));
      await listDirectoryInWorkdir(workdir, join(workdir, "src"));
      await writeFilesAtomically(
        [
          { path: join(workdir, "src", `w${round}.ts`), content: "w" },
          { path: join(workdir, "src", `v${round}.ts`), content: "v" },
          { path: join(workdir, "deep", `d${round}.ts`), content: "d" },
        ],
        { workdir },
      );
      await writeFilesAtomically([{ path: join(workdir, "pipe"), content: "x" }], { workdir }).catch(() => undefined);
    }
    expect(open()).toBe(before);
  });
});
