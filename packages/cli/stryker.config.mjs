import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: ["src/file-tools/unified-diff.ts"],
});
