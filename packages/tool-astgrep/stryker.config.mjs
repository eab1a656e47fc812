import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: ["src/staged-edit-store.ts"],
});
