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
  // Module-level constants (the metavariable regex, messages) are evaluated once per test process, so the
  // vitest runner cannot switch their mutants on: they would all "survive" whatever the tests check.
  ignoreStatic: true,
  testFiles: ["src/pattern-compiler.test.ts", "src/pattern-readings.test.ts", "src/pattern-corpus.test.ts"],
};
