import { basename } from "node:path";
import { defineConfig } from "vitest/config";

// `.ci/run` sets RUNBOUND_TEST_REPORT_DIR to collect one JSON report per package and sum them. A package
// whose test script runs the suite twice (tool-astgrep: on each engine) names its second report with
// RUNBOUND_TEST_REPORT_NAME, so the first is not overwritten.
const reportDirectory = process.env["RUNBOUND_TEST_REPORT_DIR"];
const reportName = process.env["RUNBOUND_TEST_REPORT_NAME"] ?? basename(process.cwd());

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    reporters: reportDirectory === undefined ? ["default"] : ["default", "json"],
    ...(reportDirectory === undefined ? {} : { outputFile: { json: `${reportDirectory}/${reportName}.json` } }),
  },
});
