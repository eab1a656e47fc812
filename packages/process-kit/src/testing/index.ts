export { listDescendants, listProcesses, listProcessGroup, type ProcessRow } from "../list-processes.js";
