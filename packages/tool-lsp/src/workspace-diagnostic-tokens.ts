/** The `partialResultToken` of the workspace-diagnostics stream: its reports arrive as `$/progress` with it. */
export const WORKSPACE_DIAGNOSTICS_PARTIAL_TOKEN = "runbound/workspace-diagnostics/partial";
/**
 * The stream's `workDoneToken`: pyright reports on it how many files are left to analyze. It is the
 * server checking changes (or the workspace, at start), so it pauses the request watchdog like any
 * work, but it is not loading or indexing.
 */
export const WORKSPACE_DIAGNOSTICS_WORK_TOKEN = "runbound/workspace-diagnostics/work";
