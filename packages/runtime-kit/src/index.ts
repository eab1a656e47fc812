export { LineTail } from "./line-tail.js";
export { createRestartBudget, type RestartBudget, type RestartBudgetSettings } from "./restart-budget.js";
export {
  spawnOwnedProcess,
  type OwnedProcess,
  type OwnedProcessSettings,
  type ProcessExit,
  type StopSettings,
} from "./owned-process.js";
export { readGroupResidentMemoryKiB, readResidentMemoryKiB } from "./read-resident-memory.js";
export { listDescendants, listProcesses, listProcessGroup, type ProcessRow } from "./list-processes.js";
export { isExecutableFile } from "./is-executable-file.js";
export { hostPlacement, type PlacedCommand, type Placement, type PlacementRequest } from "./placement.js";
export { createBubblewrapPlacement, type BubblewrapPlacementSettings } from "./bubblewrap-placement.js";
export { detectBubblewrap, type BubblewrapAvailability } from "./detect-bubblewrap.js";
export {
  hostPythonExecutable,
  pythonReadOnlyPaths,
  sandboxedPython,
  type SandboxedPython,
} from "./sandboxed-python.js";
export { sandboxedNodeProgramPaths } from "./sandboxed-node.js";
export { goSandboxNeeds, type SandboxNeeds } from "./go-sandbox-needs.js";
export { SANDBOX_ENVIRONMENT_ALLOWLIST, SANDBOX_HOME } from "./sandbox-environment.js";
export { signalWithDeadline, withDeadline, type DeadlineReasons, type DeadlineSignal } from "./signal-with-deadline.js";
export { untilAborted } from "./until-aborted.js";
export { withBudget, type BudgetSettings } from "./with-budget.js";
export { startInactivityClock, type InactivityClock } from "./inactivity-clock.js";
export {
  findExecutable,
  pathDirectories,
  programDirectories,
  PROJECT_BIN_DIRECTORIES,
  versionedNames,
  type ProgramDirectoriesSettings,
} from "./find-executable.js";
export { directoriesUpTo, findNearestMarker, type FindMarkerOptions, type FoundMarker } from "./find-nearest-marker.js";
export { cutText, headOf, joinWithinBudget, tailOf } from "./cut-text.js";
export { assertTextLength, checkedText, emptyText, textTooLong, textTooLongMessage } from "./text-limits.js";
export { captureStreamHead, type CapturedHead } from "./capture-stream-head.js";
export { runToCompletion, type CompletedRun, type RunToCompletionSettings } from "./run-to-completion.js";
export { displayPath, isInside, resolveInWorkdir } from "./confine-path.js";
export {
  writeFilesAtomically,
  type AtomicWriteFileSystem,
  type FileChange,
  type WriteFilesSettings,
} from "./write-files-atomically.js";
export {
  inspectInWorkdir,
  listDirectoryInWorkdir,
  readFileInWorkdir,
  type ReadInWorkdirOptions,
} from "./read-file-in-workdir.js";
export { fileSystemToolError } from "./file-system-error.js";
