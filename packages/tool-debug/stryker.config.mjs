import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/dap-framer.ts",
      "src/dap-connection.ts",
      "src/output-buffer.ts",
      "src/readable-frame-name.ts",
      "src/source-line.ts",
      "src/rust-formatters.ts",
      "src/launch-setup-cache.ts",
      "src/adapter-request-error.ts",
    ],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The real-adapter suites (minutes on a small machine) cover these files too; their own unit tests
  // are the ones meant to kill their mutants.
  testFiles: [
    "src/dap-framer.test.ts",
    "src/dap-connection.test.ts",
    "src/output-buffer.test.ts",
    "src/readable-frame-name.test.ts",
    "src/source-line.test.ts",
    "src/rust-formatters.test.ts",
    "src/launch-setup-cache.test.ts",
    "src/adapter-request-error.test.ts",
  ],
};
