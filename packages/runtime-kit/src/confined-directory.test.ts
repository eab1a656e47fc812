import { mkdir, mkdtemp, readFile, realpath, rename, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openConfinedDirectory, type ConfinedDirectory } from "./confined-directory.js";
import { toolErrorOf } from "./__fixtures__/tool-error-of.js";

let root: string;
let outside: string;

beforeEach(async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), "runbound-confined-")));
  root = join(base, "work");
  outside = join(base, "outside");
  await mkdir(join(root, "a", "b"), { recursive: true });
  await mkdir(outside);
});

async function opened(
  directory: string,
  addressing: "descriptor" | "path",
  create = false,
): Promise<ConfinedDirectory> {
  const handle = await openConfinedDirectory(root, directory, { create, shown: "f.txt", addressing });
  if (handle === null) throw new Error("expected the directory to exist");
  return handle;
}

const codeOf = async (attempt: Promise<unknown>): Promise<string> => (await toolErrorOf(attempt)).code;

describe.each(["descriptor", "path"] as const)("openConfinedDirectory, addressing by %s", (addressing) => {
  it("opens, creates and names entries of a directory inside the workdir", async () => {
    const directory = await opened(join(root, "a", "b"), addressing);
    await writeFile(directory.entry("f.txt"), "x");
    expect(await readFile(join(root, "a", "b", "f.txt"), "utf8")).toBe("x");
    expect((await directory.inspect("f.txt"))?.isFile()).toBe(true);
    expect(await directory.inspect("none")).toBeNull();
    await directory.assertStillInside();
    await directory.close();
    expect(
      await openConfinedDirectory(root, join(root, "new", "deeper"), { create: false, shown: "f.txt", addressing }),
    ).toBeNull();
    const created = await opened(join(root, "new", "deeper"), addressing, true);
    expect(created.path).toBe(join(root, "new", "deeper"));
    await created.close();
  });

  it("refuses a component that is a symlink when it is opened", async () => {
    await rename(join(root, "a"), join(root, "a.moved"));
    await symlink(outside, join(root, "a"));
    expect(
      await codeOf(openConfinedDirectory(root, join(root, "a", "b"), { create: true, shown: "f.txt", addressing })),
    ).toBe("outside_workdir");
  });

  it("notices a directory moved out of the workdir after it was opened", async () => {
    const directory = await opened(join(root, "a", "b"), addressing);
    await rename(join(root, "a"), join(outside, "a"));
    expect(await codeOf(directory.assertStillInside())).toBe(
      addressing === "descriptor" ? "outside_workdir" : "conflict",
    );
    await directory.close();
  });
});

it("names entries through the handle, so a swap after opening cannot redirect them (descriptor addressing)", async () => {
  const directory = await opened(join(root, "a", "b"), "descriptor");
  await rename(join(root, "a"), join(root, "a.moved"));
  await symlink(outside, join(root, "a"));
  await writeFile(directory.entry("f.txt"), "inside");
  expect(await readFile(join(root, "a.moved", "b", "f.txt"), "utf8")).toBe("inside");
  await directory.close();
});

it("refuses a directory outside the workdir", async () => {
  expect(await codeOf(openConfinedDirectory(root, outside, { create: false, shown: "x" }))).toBe("outside_workdir");
});
