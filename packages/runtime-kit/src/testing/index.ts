export { listDescendants, listProcesses, listProcessGroup, type ProcessRow } from "../list-processes.js";
export { listProcessesByLastArgument, untilNoProcessWithLastArgument } from "../list-processes-by-argument.js";
