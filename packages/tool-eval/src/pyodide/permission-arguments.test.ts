import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { permissionArguments, permissionFlag } from "./permission-arguments.js";

const node20 = new Set(["--experimental-permission", "--allow-fs-read"]);
const node22 = new Set(["--permission", "--experimental-permission"]);

describe("permissionFlag", () => {
  it("is --permission where Node knows it, --experimental-permission on Node 20", () => {
    expect(permissionFlag(node22)).toBe("--permission");
    expect(permissionFlag(node20)).toBe("--experimental-permission");
  });
});

describe("permissionArguments", () => {
  it("grants each path on its own flag, and a worker only when asked", () => {
    expect(permissionArguments({ readable: ["/pyodide", "/work"], writable: ["/work"], worker: true }, node20)).toEqual(
      [
        "--experimental-permission",
        "--allow-fs-read=/pyodide",
        "--allow-fs-read=/work",
        "--allow-fs-write=/work",
        "--allow-worker",
      ],
    );
    expect(permissionArguments({ readable: ["/pyodide"], writable: [], worker: false }, node22)).toEqual([
      "--permission",
      "--allow-fs-read=/pyodide",
    ]);
  });

  it.each([
    ["readable", { readable: ["/tmp/a,/"], writable: [], worker: false }],
    ["writable", { readable: [], writable: ["/tmp/a,/"], worker: false }],
  ])("refuses a %s path with a comma, which Node would split into a grant of something else", (_, permissions) => {
    let thrown: unknown;
    try {
      permissionArguments(permissions, node20);
    } catch (error) {
      thrown = error;
    }
    expect(ToolError.isInstance(thrown) && thrown.code).toBe("unavailable");
    expect((thrown as Error).message).toBe(
      "The path `/tmp/a,/` contains a comma, which Node's permission model reads as a list separator, so the isolated Pyodide kernel cannot be confined to it; use a working directory and package directory without commas.",
    );
  });
});
