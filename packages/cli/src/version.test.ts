import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CLI_VERSION } from "./version.js";

describe("CLI_VERSION", () => {
  it("equals package.json's version", async () => {
    const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(CLI_VERSION).toBe(manifest.version);
  });
});
