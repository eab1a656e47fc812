import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: ["src/confine-path.ts", "src/confined-directory.ts", "src/write-files-atomically.ts", "src/parse-tool-input.ts", "src/drop-null-optionals.ts", "src/define-tool.ts", "src/tool-error.ts"],
});
