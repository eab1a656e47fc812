import { fileToolsPlugin } from "./plugin.js";

export { fileToolsPlugin };
export default fileToolsPlugin;
export { readTool } from "./read-tool.js";
export { writeTool } from "./write-tool.js";
export { editTool } from "./edit-tool.js";
export { applyPatchTool } from "./apply-patch-tool.js";
export { PACKAGE_VERSION } from "./version.js";
