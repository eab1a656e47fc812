import { definePlugin } from "@runbound/tool-kit";
import { applyPatchTool } from "./apply-patch-tool.js";
import { editTool } from "./edit-tool.js";
import { readTool } from "./read-tool.js";
import { PACKAGE_VERSION } from "./version.js";
import { writeTool } from "./write-tool.js";

/**
 * `read`, `write`, `edit` and `apply_patch` over the run's `Workdir`. They need no resource of their
 * own, and report writes through `context.wrote`, like every writer, so write observers run.
 */
export const fileToolsPlugin = definePlugin({
  name: "@runbound/tool-files",
  version: PACKAGE_VERSION,
  tools: [readTool, writeTool, editTool, applyPatchTool],
});
