import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/magics/find-magic-lines.ts", "src/magics/rewrite-magics.ts", "src/cell-transcript.ts", "src/inactivity-clock.ts", "src/resolve-python.ts"],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The real-kernel suites (tens of seconds) cover these files too; their own unit tests are the ones
  // meant to kill their mutants.
  testFiles: ["src/magics/rewrite-magics.test.ts", "src/cell-transcript.test.ts", "src/inactivity-clock.test.ts", "src/resolve-python.test.ts"],
};
