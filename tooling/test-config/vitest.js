import { basename } from "node:path";
import { defineConfig } from "vitest/config";

// `.ci/run` sets RUNBOUND_TEST_REPORT_DIR to collect one JSON report per package and sum them.
const reportDirectory = process.env["RUNBOUND_TEST_REPORT_DIR"];

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    reporters: reportDirectory === undefined ? ["default"] : ["default", "json"],
    ...(reportDirectory === undefined ? {} : { outputFile: { json: `${reportDirectory}/${basename(process.cwd())}.json` } }),
  },
});
