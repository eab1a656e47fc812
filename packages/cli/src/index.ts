export { main } from "./main.js";
export { openRun, type OpenedRun, type OpenRunSettings } from "./open-run.js";
export { applyPatchTool, editTool, fileToolsPlugin, readTool, writeTool } from "@runbound/tool-files";
export { EXIT_CODES } from "./usage-error.js";
