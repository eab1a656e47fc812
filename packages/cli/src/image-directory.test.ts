import { mkdir, mkdtemp, readdir, realpath, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createImageDirectory, IMAGE_RETENTION_MS, imageDirectoryPattern } from "./image-directory.js";

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

  it("removes this user's image directories older than the retention, and nothing else", async () => {
    await directoryAged("runbound-images-stale", IMAGE_RETENTION_MS + 60_000);
    await directoryAged("runbound-images-young", IMAGE_RETENTION_MS - 60_000);
    await directoryAged("other-stale", IMAGE_RETENTION_MS * 2);
    const target = await directoryAged("target-stale", IMAGE_RETENTION_MS * 2);
    await symlink(target, join(temporary, "runbound-images-link"));
    await writeFile(join(temporary, "runbound-images-file"), "not a directory");
    const created = await createImageDirectory();
    expect((await readdir(temporary)).sort()).toEqual([basename(created), "other-stale", "runbound-images-file", "runbound-images-link", "runbound-images-young", "target-stale"].sort());
    expect(await readdir(target)).toEqual(["image-1.png"]);
  });
});
