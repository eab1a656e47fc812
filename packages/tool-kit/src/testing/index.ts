export { createFakeRun, type FakeRun, type FakeRunSettings } from "./create-fake-run.js";
export { describePluginConformance, type PluginConformanceSettings } from "./describe-plugin-conformance.js";
