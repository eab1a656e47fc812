import { strykerConfig } from "@runbound/test-config/stryker";

export default strykerConfig({
  mutate: ["src/position-from-symbol.ts", "src/position-encoding.ts", "src/find-nearest-marker.ts", "src/bounded-rows.ts"],
});
