import { strykerConfig } from "@runbound/test-config/stryker";

// Mutation testing of the pattern compiler against the tests written to kill its mutants. Without the
// type checker: a mutant that does not type-check fails these tests anyway, and the checker triples the
// time per mutant on this 500-line module.
export default {
  ...strykerConfig({ mutate: ["src/pattern-compiler.ts"] }),
  checkers: [],
  ignorePatterns: ["/.stryker-tmp*"],
  tempDirName: ".stryker-tmp-patterns",
  jsonReporter: { fileName: "reports/mutation/pattern-compiler.json" },
  testFiles: ["src/pattern-compiler.test.ts", "src/pattern-readings.test.ts"],
};
