import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rename, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolErrorOf } from "./__fixtures__/tool-error-of.js";
import { beforeEach, describe, expect, it } from "vitest";
import { writeFilesAtomically, type AtomicWriteFileSystem, type FileChange } from "./write-files-atomically.js";

let dir: string;
let outside: string;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-atomic-")));
  dir = join(base, "work");
  outside = join(base, "outside");
  await mkdir(dir);
  await mkdir(outside);
  await writeFile(join(dir, "a.txt"), "A0");
  await writeFile(join(dir, "b.txt"), "B0");
  await writeFile(join(dir, "gone.txt"), "G0");
});

const contents = async (of = dir) =>
  Object.fromEntries(
    await Promise.all((await readdir(of)).sort().map(async (name) => [name, await readFile(join(of, name), "utf8")])),
  );
const write = (changes: FileChange[], fileSystem?: Partial<AtomicWriteFileSystem>) =>
  writeFilesAtomically(changes, { workdir: dir, ...(fileSystem === undefined ? {} : { fileSystem }) });

describe("writeFilesAtomically", () => {
  it("writes, creates and deletes files as one change, keeping file modes", async () => {
    await chmod(join(dir, "a.txt"), 0o755);
    await write([
      { path: join(dir, "a.txt"), content: "A1", expected: "A0" },
      { path: join(dir, "new", "deeper", "c.txt"), content: "C1", expected: null },
      { path: join(dir, "gone.txt"), content: null, expected: "G0" },
    ]);
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "b.txt", "new"]);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("A1");
    expect(await readFile(join(dir, "new", "deeper", "c.txt"), "utf8")).toBe("C1");
    expect((await stat(join(dir, "a.txt"))).mode & 0o777).toBe(0o755);
  });

  it("creates new files with the default mode less the umask, not a copied one", async () => {
    await write([{ path: join(dir, "fresh.txt"), content: "x" }]);
    expect((await stat(join(dir, "fresh.txt"))).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it("rejects the whole change when any file differs from what was expected, naming it", async () => {
    const error = await toolErrorOf(
      write([
        { path: join(dir, "a.txt"), content: "A1", expected: "A0" },
        { path: join(dir, "b.txt"), content: "B1", expected: "B-old", label: "b.txt" },
      ]),
    );
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(
      "Nothing was written: `b.txt` changed since the edit was prepared. Prepare the edit again from the current content.",
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("says which expected files were deleted or created meanwhile", async () => {
    const error = await toolErrorOf(
      write([
        { path: join(dir, "missing.txt"), content: "M1", expected: "M0", label: "missing.txt" },
        { path: join(dir, "nodir", "x.txt"), content: "X1", expected: "X0", label: "nodir/x.txt" },
        { path: join(dir, "a.txt"), content: "A1", expected: null, label: "a.txt" },
      ]),
    );
    expect(error.message).toContain(
      "Nothing was written: `missing.txt` (deleted), `nodir/x.txt` (deleted), `a.txt` (created) changed since the edit was prepared.",
    );
    expect(await readdir(dir)).not.toContain("nodir");
  });

  it("lets only one of two changes computed from the same content through, so no update is lost", async () => {
    const path = join(dir, "a.txt");
    const outcomes = await Promise.allSettled([
      write([{ path, content: "A0 + first", expected: "A0", label: "a.txt" }]),
      write([{ path, content: "A0 + second", expected: "A0", label: "a.txt" }]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain(
      "`a.txt` changed since the edit was prepared",
    );
    expect(await readFile(path, "utf8")).toBe("A0 + first");
  });

  it("restores every file when a rename fails midway and leaves no temporary files", async () => {
    let renames = 0;
    const failing = async (from: string, to: string) => {
      renames += 1;
      // Fail on the second file's move into place, after the first file was already replaced.
      if (renames === 4) throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
      await rename(from, to);
    };
    const error = await toolErrorOf(
      write(
        [
          { path: join(dir, "a.txt"), content: "A1" },
          { path: join(dir, "b.txt"), content: "B1" },
          { path: join(dir, "gone.txt"), content: null },
        ],
        { rename: failing },
      ),
    );
    expect(error.code).toBe("io_error");
    expect(error.message).toBe(
      "Nothing was written: writing the change failed (EIO: injected) and every file was restored. Check permissions and disk space, then try again.",
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("keeps a file it failed to move aside, and restores the ones already replaced", async () => {
    const failing = async (from: string, to: string) => {
      if (from.endsWith("/b.txt")) throw Object.assign(new Error("EBUSY: injected"), { code: "EBUSY" });
      await rename(from, to);
    };
    await toolErrorOf(
      write(
        [
          { path: join(dir, "a.txt"), content: "A1" },
          { path: join(dir, "b.txt"), content: "B1" },
        ],
        { rename: failing },
      ),
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("removes the temporary files when writing one of them fails", async () => {
    let writes = 0;
    const failing: Partial<AtomicWriteFileSystem> = {
      writeFile: async (path, data) => {
        writes += 1;
        if (writes === 2) throw Object.assign(new Error("ENOSPC: injected full disk"), { code: "ENOSPC" });
        await writeFile(path, data);
      },
    };
    await toolErrorOf(
      write(
        [
          { path: join(dir, "a.txt"), content: "A1" },
          { path: join(dir, "b.txt"), content: "B1" },
        ],
        failing,
      ),
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("refuses to write without a workdir to confine the files to", async () => {
    const error = await toolErrorOf(
      writeFilesAtomically([{ path: join(dir, "a.txt"), content: "x" }], undefined as never),
    );
    expect([error.code, error.message]).toEqual([
      "internal",
      "writeFilesAtomically needs `settings.workdir`, the directory every file is confined to.",
    ]);
  });

  it("removes a file it created when a later file of the change fails", async () => {
    let failed = false;
    const failing = async (from: string, to: string) => {
      if (to.endsWith("/b.txt") && !failed) {
        failed = true;
        throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
      }
      await rename(from, to);
    };
    await toolErrorOf(
      write(
        [
          { path: join(dir, "created.txt"), content: "C1" },
          { path: join(dir, "b.txt"), content: "B1" },
        ],
        { rename: failing },
      ),
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("deletes nothing and succeeds when a file to delete, and its directory, are already gone", async () => {
    await write([
      { path: join(dir, "nodir", "x.txt"), content: null },
      { path: join(dir, "a.txt"), content: "A1" },
    ]);
    expect(await contents()).toEqual({ "a.txt": "A1", "b.txt": "B0", "gone.txt": "G0" });
    // And rolls back past it when a later file fails.
    const failing = async () => {
      throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
    };
    const error = await toolErrorOf(
      write(
        [
          { path: join(dir, "nodir", "x.txt"), content: null },
          { path: join(dir, "a.txt"), content: "A2" },
        ],
        { rename: failing },
      ),
    );
    expect(error.message).toContain("every file was restored");
    expect(await contents()).toEqual({ "a.txt": "A1", "b.txt": "B0", "gone.txt": "G0" });
  });

  it("writes a file whose name is near the 255-byte limit (its temporary name is shortened)", async () => {
    const name = `${"n".repeat(250)}.txt`;
    await write([{ path: join(dir, name), content: "long" }]);
    expect(await readFile(join(dir, name), "utf8")).toBe("long");
    expect((await readdir(dir)).filter((entry) => entry.includes(".runbound-"))).toEqual([]);
  });

  it("refuses a change that names one file twice, and a path outside the workdir", async () => {
    const twice = await toolErrorOf(
      write([
        { path: join(dir, "b.txt"), content: "0" },
        { path: join(dir, "a.txt"), content: "1", label: "a.txt" },
        { path: join(dir, "a.txt"), content: "2" },
      ]),
    );
    expect([twice.code, twice.message]).toEqual([
      "invalid_input",
      "`a.txt` appears twice in one change. Merge its changes into one.",
    ]);
    const escaping = await toolErrorOf(
      write([{ path: join(outside, "x.txt"), content: "x", label: "../outside/x.txt" }]),
    );
    expect([escaping.code, escaping.message]).toEqual([
      "outside_workdir",
      `Path \`../outside/x.txt\` resolves outside the working directory \`${dir}\`. Use a path inside it.`,
    ]);
    expect(await contents(outside)).toEqual({});
  });
});

describe("writeFilesAtomically confines every file when it writes it", () => {
  it("refuses a directory replaced by a symlink to outside after the change was planned (a checkout meanwhile)", async () => {
    await mkdir(join(dir, "sub2"));
    await writeFile(join(dir, "sub2", "t.ts"), "old");
    await writeFile(join(outside, "t.ts"), "outside");
    const planned: FileChange = {
      path: join(dir, "sub2", "t.ts"),
      content: "new",
      expected: "old",
      label: "sub2/t.ts",
    };
    await rename(join(dir, "sub2"), join(dir, "sub2.moved"));
    await symlink(outside, join(dir, "sub2"));
    const error = await toolErrorOf(write([planned]));
    expect(error.code).toBe("outside_workdir");
    expect(error.message).toBe(
      "Nothing was written to `sub2/t.ts`: `sub2` was replaced by a symbolic link leading outside the working directory after the path was checked. Check what changed the directory, then try again.",
    );
    expect(await contents(outside)).toEqual({ "t.ts": "outside" });
    // Creating a file under the swapped directory is refused the same way.
    expect((await toolErrorOf(write([{ path: join(dir, "sub2", "new.ts"), content: "x" }]))).code).toBe(
      "outside_workdir",
    );
    expect(await contents(outside)).toEqual({ "t.ts": "outside" });
  });

  it("names the component that was swapped, and counts a dangling link as leading outside", async () => {
    await mkdir(join(dir, "deep", "sub"), { recursive: true });
    await rename(join(dir, "deep", "sub"), join(dir, "deep", "sub.moved"));
    await symlink(join(outside, "nothing-here"), join(dir, "deep", "sub"));
    const error = await toolErrorOf(
      write([{ path: join(dir, "deep", "sub", "f.txt"), content: "x", label: "deep/sub/f.txt" }]),
    );
    expect([error.code, error.message]).toEqual([
      "outside_workdir",
      "Nothing was written to `deep/sub/f.txt`: `deep/sub` was replaced by a symbolic link leading outside the working directory after the path was checked. Check what changed the directory, then try again.",
    ]);
  });

  it("answers conflict when a directory became a symlink that stays inside, and when the file itself became one", async () => {
    await mkdir(join(dir, "real"));
    await writeFile(join(dir, "real", "f.txt"), "F0");
    await symlink(join(dir, "real"), join(dir, "linked"));
    const inside = await toolErrorOf(
      write([{ path: join(dir, "linked", "f.txt"), content: "F1", label: "linked/f.txt" }]),
    );
    expect([inside.code, inside.message]).toEqual([
      "conflict",
      "Nothing was written to `linked/f.txt`: `linked` was replaced by a symbolic link after the path was checked. Check what changed the directory, then try again.",
    ]);
    await writeFile(join(outside, "target.txt"), "T0");
    await rename(join(dir, "a.txt"), join(dir, "a.moved"));
    await symlink(join(outside, "target.txt"), join(dir, "a.txt"));
    const error = await toolErrorOf(
      write([{ path: join(dir, "a.txt"), content: "A1", expected: "A0", label: "a.txt" }]),
    );
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("`a.txt` was replaced by a symbolic link");
    expect(await readFile(join(outside, "target.txt"), "utf8")).toBe("T0");
  });

  it("undoes the change when the directory is moved outside the workdir while it is being written", async () => {
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, "sub", "f.txt"), "F0");
    let moved = false;
    const movingAway = async (from: string, to: string) => {
      if (!moved) {
        moved = true;
        await rename(join(dir, "sub"), join(outside, "sub"));
      }
      await rename(from, to);
    };
    const error = await toolErrorOf(
      write([{ path: join(dir, "sub", "f.txt"), content: "F1", expected: "F0", label: "sub/f.txt" }], {
        rename: movingAway,
      }),
    );
    expect(error.code).toBe("outside_workdir");
    expect(error.message).toContain(`was moved outside the working directory (to \`${join(outside, "sub")}\`)`);
    expect(await contents(join(outside, "sub"))).toEqual({ "f.txt": "F0" });
  });

  it("answers invalid_input when a directory on the path is a file", async () => {
    const error = await toolErrorOf(
      write([{ path: join(dir, "a.txt", "child.txt"), content: "x", label: "a.txt/child.txt" }]),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "`a.txt` in `a.txt/child.txt` is not a directory, so `a.txt/child.txt` cannot be used. Check the path.",
    );
  });
});

describe("writeFilesAtomically changes only regular files that may be written", () => {
  it("refuses a named pipe at once instead of blocking on it", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    for (const change of [
      { path: join(dir, "pipe"), content: "x", label: "pipe" },
      { path: join(dir, "pipe"), content: "x", expected: "y", label: "pipe" },
      { path: join(dir, "pipe"), content: null, label: "pipe" },
    ]) {
      const error = await toolErrorOf(write([change]));
      expect(error.code).toBe("invalid_input");
      expect(error.message).toBe(
        "`pipe` is a named pipe, not a regular file; only regular files can be read or written. Give the path of a regular file.",
      );
    }
  });

  it("refuses a read-only file, keeping it and the rest of the change as they were", async () => {
    await chmod(join(dir, "b.txt"), 0o444);
    const error = await toolErrorOf(
      write([
        { path: join(dir, "a.txt"), content: "A1" },
        { path: join(dir, "b.txt"), content: "B1", label: "b.txt" },
      ]),
    );
    expect(error.code).toBe("io_error");
    expect(error.message).toBe(
      "Nothing was written: `b.txt` is read-only (mode 0444). Leave it as it is, or make it writable (`chmod u+w`) first if it is meant to change.",
    );
    expect(await contents()).toEqual({ "a.txt": "A0", "b.txt": "B0", "gone.txt": "G0" });
    expect((await toolErrorOf(write([{ path: join(dir, "b.txt"), content: null, label: "b.txt" }]))).code).toBe(
      "io_error",
    );
  });

  it("answers conflict when a staged file became a directory, invalid_input when a new file's path is one", async () => {
    await mkdir(join(dir, "d"));
    const staged = await toolErrorOf(write([{ path: join(dir, "d"), content: "x", expected: "old", label: "d" }]));
    expect(staged.code).toBe("conflict");
    expect(staged.message).toBe(
      "Nothing was written: `d` became a directory since the edit was prepared. Prepare the edit again from the current files.",
    );
    const plain = await toolErrorOf(write([{ path: join(dir, "d"), content: "x", label: "d" }]));
    expect(plain.code).toBe("invalid_input");
    expect(plain.message).toContain("`d` is a directory, not a file.");
  });
});
