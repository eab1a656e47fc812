import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: [
    "src/confine-path.ts",
    "src/confined-directory.ts",
    "src/read-file-in-workdir.ts",
    "src/file-system-error.ts",
    "src/write-files-atomically.ts",
    "src/parse-tool-input.ts",
    "src/find-prototype-key.ts",
    "src/schema-node.ts",
    "src/shorten-for-message.ts",
    "src/drop-null-optionals.ts",
    "src/define-tool.ts",
    "src/define-plugin.ts",
    "src/tool-error.ts",
    "src/error-result.ts",
  ],
});
