import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/unified-diff.ts",
      "src/apply-file-patch.ts",
      "src/git-diff-header.ts",
      "src/git-quoted-path.ts",
      "src/run-steps.ts",
    ],
  }),
  // Stryker reruns, for every mutant, the tests that cover it. The diff reader's own unit tests are the
  // ones meant to kill its mutants; the tools' tests (real files, a racing directory swap), the
  // differential test against `git apply` (tens of seconds) and the scale test would make one run take
  // hours on a small machine.
  testFiles: [
    "src/unified-diff.test.ts",
    "src/apply-file-patch.test.ts",
    "src/git-diff-header.test.ts",
    "src/run-steps.test.ts",
    "src/git-quoted-path.test.ts",
  ],
};
