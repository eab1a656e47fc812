import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: ["src/file-tools/unified-diff.ts"],
  }),
  // Only the diff reader's own tests can kill its mutants; running the CLI and MCP integration tests
  // for each mutant would make one run take hours on a small machine.
  testFiles: ["src/file-tools/unified-diff*.test.ts", "src/file-tools/file-tools.test.ts"],
};
