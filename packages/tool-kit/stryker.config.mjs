import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: [
    "src/parse-tool-input.ts",
    "src/find-prototype-key.ts",
    "src/schema-node.ts",
    "src/shorten-for-message.ts",
    "src/drop-null-optionals.ts",
    "src/define-tool.ts",
    "src/define-plugin.ts",
    "src/tool-error.ts",
    "src/error-result.ts",
    "src/is-tool-visible.ts",
  ],
});
