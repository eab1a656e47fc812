import { definePlugin } from "@runbound/tool-kit";
import { CLI_VERSION } from "../version.js";
import { applyPatchTool } from "./apply-patch-tool.js";
import { editTool } from "./edit-tool.js";
import { readTool } from "./read-tool.js";
import { writeTool } from "./write-tool.js";

/** The reference runner's own file tools. They report writes through `ctx.wrote`, like every writer. */
export const fileToolsPlugin = definePlugin({
  name: "runbound/file-tools",
  version: CLI_VERSION,
  tools: [readTool, writeTool, editTool, applyPatchTool],
});
