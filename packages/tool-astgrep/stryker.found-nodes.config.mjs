import { strykerConfig } from "@runbound/test-config/stryker";

// Mutation testing of found-nodes.ts (how a search's found nodes are sorted into matches, ERROR and
// MISSING nodes) against the tests that exercise it: npx stryker run stryker.found-nodes.config.mjs --concurrency 1
export default {
  ...strykerConfig({ mutate: ["src/found-nodes.ts"] }),
  checkers: [],
  ignorePatterns: ["/.stryker-tmp*"],
  tempDirName: ".stryker-tmp-found-nodes",
  jsonReporter: { fileName: "reports/mutation/found-nodes.json" },
  testFiles: [
    "src/found-nodes.test.ts",
    "src/syntax-errors.test.ts",
    "src/tolerant-patterns.test.ts",
    "src/ast-grep-tool.test.ts",
    "src/ast-edit-tool.test.ts",
  ],
};
