import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/function-roster.ts", "src/output-tail.ts", "src/describe-worker.ts", "src/worker-command.ts"],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The suites with real worker processes take seconds per run; the unit tests are the ones meant to
  // kill these modules' mutants.
  testFiles: [
    "src/function-roster.test.ts",
    "src/output-tail.test.ts",
    "src/describe-worker.test.ts",
    "src/worker-command.test.ts",
  ],
};
