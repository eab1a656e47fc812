import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: [
    "src/cap-output.ts",
    "src/serial-queue.ts",
    "src/schema/schema-profile-violations.ts",
    "src/create-run.ts",
    "src/collect-tools.ts",
    "src/resource-table.ts",
    "src/approve-call.ts",
    "src/execute-call.ts",
    "src/execute-serially.ts",
  ],
});
