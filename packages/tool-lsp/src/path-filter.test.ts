import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parsePathFilter } from "./path-filter.js";

describe("parsePathFilter", () => {
  let workdir: string;
  beforeAll(() => {
    workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-path-filter-")));
    mkdirSync(join(workdir, "src", "extra"), { recursive: true });
  });

  it("a folder keeps what is in it and below, not a sibling that shares its prefix", async () => {
    const filter = await parsePathFilter(workdir, "src/extra");
    expect(filter.matches("src/extra/totals.ts")).toBe(true);
    expect(filter.matches("src/extra/deep/a.ts")).toBe(true);
    expect(filter.matches("src/extras/a.ts")).toBe(false);
    expect(filter.matches("src/report.ts")).toBe(false);
    expect((await parsePathFilter(workdir, "./src/extra/")).matches("src/extra/totals.ts")).toBe(true);
  });

  it("a glob: ** crosses folders, * does not, {a,b} is either", async () => {
    const tests = await parsePathFilter(workdir, "src/**/*.test.ts");
    expect(tests.matches("src/a.test.ts")).toBe(true);
    expect(tests.matches("src/extra/deep/b.test.ts")).toBe(true);
    expect(tests.matches("src/a.ts")).toBe(false);
    const top = await parsePathFilter(workdir, "src/*.ts");
    expect(top.matches("src/report.ts")).toBe(true);
    expect(top.matches("src/extra/totals.ts")).toBe(false);
    const either = await parsePathFilter(workdir, "**/{report,totals}.ts");
    expect(either.matches("src/report.ts")).toBe(true);
    expect(either.matches("src/extra/totals.ts")).toBe(true);
    expect(either.matches("src/shapes.ts")).toBe(false);
  });

  it("never keeps a place outside the workdir, and refuses a path that leaves it", async () => {
    expect((await parsePathFilter(workdir, "**")).matches("/usr/lib/go/src/fmt/print.go")).toBe(false);
    expect((await parsePathFilter(workdir, ".")).matches("/usr/lib/go/src/fmt/print.go")).toBe(false);
    await expect(parsePathFilter(workdir, "../elsewhere/*.ts")).rejects.toMatchObject({ code: "outside_workdir" });
    await expect(parsePathFilter(workdir, " ")).rejects.toMatchObject({ code: "invalid_input" });
  });
});
