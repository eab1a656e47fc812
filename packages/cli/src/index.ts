export { main } from "./main.js";
export { openRun, type OpenedRun, type OpenRunSettings } from "./open-run.js";
export { fileToolsPlugin } from "./file-tools/file-tools-plugin.js";
export { readTool } from "./file-tools/read-tool.js";
export { writeTool } from "./file-tools/write-tool.js";
export { editTool } from "./file-tools/edit-tool.js";
export { applyPatchTool } from "./file-tools/apply-patch-tool.js";
export { EXIT_CODES } from "./usage-error.js";
