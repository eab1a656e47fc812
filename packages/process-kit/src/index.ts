export { LineTail } from "./line-tail.js";
export { createRestartBudget, type RestartBudget, type RestartBudgetSettings } from "./restart-budget.js";
export { spawnOwnedProcess, type OwnedProcess, type OwnedProcessSettings, type ProcessExit, type StopSettings } from "./owned-process.js";
export { readGroupResidentMemoryKiB, readResidentMemoryKiB } from "./read-resident-memory.js";
export { listDescendants, listProcesses, listProcessGroup, type ProcessRow } from "./list-processes.js";
export { isExecutableFile } from "./is-executable-file.js";
