import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/file-tools/unified-diff.ts", "src/file-tools/apply-file-patch.ts", "src/file-tools/git-diff-header.ts", "src/file-tools/git-quoted-path.ts", "src/file-tools/run-steps.ts"],
  }),
  // Stryker reruns, for every mutant, the tests that cover it. The diff reader's own unit tests are the
  // ones meant to kill its mutants; the CLI and MCP integration tests, the differential test against
  // `git apply` (tens of seconds) and the scale test would make one run take hours on a small machine.
  testFiles: ["src/file-tools/unified-diff.test.ts", "src/file-tools/apply-file-patch.test.ts", "src/file-tools/git-diff-header.test.ts", "src/file-tools/run-steps.test.ts", "src/file-tools/git-quoted-path.test.ts"],
};
