import base from "./stryker.config.mjs";

// Mutation testing of the grammar loading (issue 11 §5), with the tests meant to kill its mutants:
// npx stryker run stryker.grammars.config.mjs --concurrency 1
export default {
  ...base,
  mutate: [
    "src/language-registry.ts",
    "src/grammar-packages.ts",
    "src/grammar-availability.ts",
    "src/grammar-catalog.ts",
  ],
  testFiles: ["src/grammar-packages.test.ts", "src/grammar-registration.test.ts"],
  jsonReporter: { fileName: "reports/mutation/grammars.json" },
  tempDirName: ".stryker-tmp-grammars",
};
