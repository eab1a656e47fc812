export { LineTail } from "./line-tail.js";
export { createRestartBudget, type RestartBudget, type RestartBudgetSettings } from "./restart-budget.js";
export { spawnOwnedProcess, type OwnedProcess, type OwnedProcessSettings, type ProcessExit, type StopSettings } from "./owned-process.js";
export { readResidentMemoryKiB } from "./read-resident-memory.js";
