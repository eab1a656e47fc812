import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/magics/find-magic-lines.ts",
      "src/magics/rewrite-magics.ts",
      "src/cell-transcript.ts",
      "src/resolve-python.ts",
      "src/pyodide/offline-packages.ts",
      "src/pyodide/permission-arguments.ts",
      "src/pyodide/snapshot-seal.ts",
      "src/json-lines-channel.ts",
      // kernel-main, kernel-watchdog and kernel-program run from their source text inside the child,
      // where the mutation instrumentation's globals do not exist: they are not mutated.
      "src/javascript/strip-kernel-frames.ts",
      "src/javascript/cell-tool-answer.ts",
      "src/javascript/kernel-frames.ts",
    ],
  }),
  // Runs started side by side use their own temp folders (`--tempDirName`); Stryker ignores only its
  // own, so without this one run copies another's half-written sandbox into its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The real-kernel suites (tens of seconds) cover these files too; their own unit tests are the ones
  // meant to kill their mutants.
  testFiles: [
    "src/magics/rewrite-magics.test.ts",
    "src/cell-transcript.test.ts",
    "src/resolve-python.test.ts",
    "src/pyodide/offline-packages.test.ts",
    "src/pyodide/permission-arguments.test.ts",
    "src/pyodide/snapshot-seal.test.ts",
    "src/json-lines-channel.test.ts",
    "src/javascript/strip-kernel-frames.test.ts",
    "src/javascript/cell-tool-answer.test.ts",
    "src/javascript/kernel-frames.test.ts",
  ],
};
