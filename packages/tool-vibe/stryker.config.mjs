import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/function-roster.ts", "src/output-tail.ts", "src/cut-text.ts", "src/describe-worker.ts", "src/worker-command.ts", "src/checked-text.ts"],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The suites with real worker processes take seconds per run; the unit tests are the ones meant to
  // kill these modules' mutants (the tool tests over a function roster cover checked-text).
  testFiles: [
    "src/function-roster.test.ts",
    "src/output-tail.test.ts",
    "src/cut-text.test.ts",
    "src/describe-worker.test.ts",
    "src/worker-command.test.ts",
    "src/checked-text.test.ts",
  ],
};
