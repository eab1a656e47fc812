import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/staged-edit-store.ts",
      "src/ignore-rules.ts",
      "src/git-repository.ts",
      "src/syntax-error-ledger.ts",
      "src/parse-cache.ts",
    ],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The tests meant to kill these modules' mutants; the whole suite covers them too, at minutes per mutant.
  testFiles: [
    "src/staged-edit-store.test.ts",
    "src/ignore-rules.test.ts",
    "src/ignore-sources.test.ts",
    "src/syntax-errors.test.ts",
    "src/parse-cache.test.ts",
    "src/parse-cache-entries.test.ts",
  ],
};
