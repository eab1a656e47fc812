import { chown, mkdir, mkdtemp, readdir, realpath, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createImageDirectory, imageDirectoryPattern } from "./image-directory.js";

let temporary: string;
const previousTmpdir = process.env["TMPDIR"];

beforeEach(async () => {
  temporary = await realpath(await mkdtemp(join(tmpdir(), "runbound-image-directory-")));
  process.env["TMPDIR"] = temporary;
});

afterEach(() => {
  if (previousTmpdir === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = previousTmpdir;
});

async function directoryAged(name: string, ageMs: number): Promise<string> {
  const path = join(temporary, name);
  await mkdir(path);
  await writeFile(join(path, "image-1.png"), "x");
  const time = new Date(Date.now() - ageMs);
  await utimes(path, time, time);
  return path;
}

describe("createImageDirectory", () => {
  it("makes a new directory in the temporary directory, as --help says", async () => {
    const created = await createImageDirectory();
    expect(imageDirectoryPattern()).toBe(join(temporary, "runbound-images-XXXXXX"));
    expect(created).toMatch(new RegExp(`^${temporary}/runbound-images-\\w{6}$`));
    expect(await readdir(temporary)).toEqual([basename(created)]);
  });

  it("removes this user's image directories older than a day, and nothing else", async () => {
    const hour = 3_600_000;
    await directoryAged("runbound-images-stale", 25 * hour);
    await directoryAged("runbound-images-young", 23 * hour);
    await directoryAged("other-stale", 48 * hour);
    const target = await directoryAged("target-stale", 48 * hour);
    await symlink(target, join(temporary, "runbound-images-link"));
    await writeFile(join(temporary, "runbound-images-file"), "not a directory");
    // Another user's images (the tests run as root, as CI does, so they can give a directory away).
    const foreign = await directoryAged("runbound-images-foreign", 48 * hour);
    await chown(foreign, 4242, 4242);
    await utimes(foreign, new Date(Date.now() - 48 * hour), new Date(Date.now() - 48 * hour));
    const created = await createImageDirectory();
    expect((await readdir(temporary)).sort()).toEqual(
      [
        basename(created),
        "other-stale",
        "runbound-images-file",
        "runbound-images-foreign",
        "runbound-images-link",
        "runbound-images-young",
        "target-stale",
      ].sort(),
    );
    expect(await readdir(target)).toEqual(["image-1.png"]);
  });
});
