// A plugin built against a contract version this host does not know.
export default { specificationVersion: "tool-v9", name: "future-plugin", version: "9.0.0", tools: [], observers: [], resourceProviders: [] };
