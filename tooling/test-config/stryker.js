// The mutation-testing settings every package shares; a package's stryker.config.mjs adds what to mutate.
// Stryker copies the package into a sandbox inside it, which is why the shared test config is a package.
/** @param {{ mutate: string[] }} settings */
export function strykerConfig({ mutate }) {
  return {
    testRunner: "vitest",
    vitest: { configFile: "vitest.config.ts" },
    checkers: ["typescript"],
    tsconfigFile: "tsconfig.json",
    // Type errors of a mutant count as killed only through the checker, not as test failures.
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    mutate,
    reporters: ["clear-text", "progress-append-only", "json"],
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    concurrency: 2,
    cleanTempDir: "always",
  };
}
