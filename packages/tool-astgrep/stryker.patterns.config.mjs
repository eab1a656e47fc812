import { strykerConfig } from "@runbound/test-config/stryker";

// Mutation testing of the pattern compiler against the tests written to kill its mutants:
// npx stryker run stryker.patterns.config.mjs --concurrency 1
// Without the type checker, which would add a TypeScript check of the package to each of its ~580 mutants;
// a mutant that only breaks the types is then judged by the tests alone.
export default {
  ...strykerConfig({ mutate: ["src/pattern-compiler.ts"] }),
  checkers: [],
  ignorePatterns: ["/.stryker-tmp*"],
  tempDirName: ".stryker-tmp-patterns",
  jsonReporter: { fileName: "reports/mutation/pattern-compiler.json" },
  testFiles: ["src/pattern-compiler.test.ts", "src/pattern-readings.test.ts"],
};
