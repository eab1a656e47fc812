import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: [
    "src/line-tail.ts",
    "src/restart-budget.ts",
    "src/owned-process.ts",
    "src/run-to-completion.ts",
    "src/signal-with-deadline.ts",
    "src/until-aborted.ts",
    "src/with-budget.ts",
    "src/find-executable.ts",
    "src/find-nearest-marker.ts",
    "src/cut-text.ts",
    "src/text-limits.ts",
    "src/confine-path.ts",
    "src/confined-directory.ts",
    "src/read-file-in-workdir.ts",
    "src/file-system-error.ts",
    "src/write-files-atomically.ts",
  ],
});
