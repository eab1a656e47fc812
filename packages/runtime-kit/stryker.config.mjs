import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: ["src/line-tail.ts", "src/restart-budget.ts", "src/owned-process.ts"],
});
