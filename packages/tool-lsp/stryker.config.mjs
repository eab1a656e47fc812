import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/position-from-symbol.ts", "src/position-encoding.ts", "src/bounded-rows.ts", "src/find-nearest-marker.ts", "src/resolve-binary.ts"],
  }),
  // Stryker reruns, for every mutant, the tests that cover it. The real-server suite (tens of seconds
  // per run on a small machine) covers these files too; their own unit tests are the ones meant to kill
  // their mutants.
  testFiles: ["src/position-from-symbol.test.ts", "src/position-encoding.test.ts", "src/bounded-rows.test.ts", "src/find-nearest-marker.test.ts", "src/resolve-binary.test.ts"],
};
