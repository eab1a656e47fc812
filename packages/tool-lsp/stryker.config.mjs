import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/position-from-symbol.ts",
      "src/position-encoding.ts",
      "src/bounded-rows.ts",
      "src/resolve-binary.ts",
      "src/diagnostics-ledger.ts",
      "src/plan-workspace-edit.ts",
      "src/format-diagnostic.ts",
      "src/workspace-edit-ranges.ts",
      "src/document-sync.ts",
      "src/checker-output/tsc.ts",
      "src/checker-output/pyright-json.ts",
      "src/checker-output/go-vet.ts",
      "src/checker-output/cargo-json.ts",
      "src/checker-output/dart-machine.ts",
    ],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // Stryker reruns, for every mutant, the tests that cover it. The real-server suite (tens of seconds
  // per run on a small machine) covers these files too; their own unit tests are the ones meant to kill
  // their mutants.
  testFiles: [
    "src/position-from-symbol.test.ts",
    "src/position-encoding.test.ts",
    "src/bounded-rows.test.ts",
    "src/resolve-binary.test.ts",
    "src/checker-output/*.test.ts",
    "src/diagnostics-ledger.test.ts",
    "src/plan-workspace-edit.test.ts",
    "src/format-diagnostic.test.ts",
    "src/workspace-edit-ranges.test.ts",
    "src/document-sync.test.ts",
  ],
};
