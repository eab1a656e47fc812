import { definePlugin } from "@runbound/tool-kit";
import { PACKAGE_VERSION } from "./version.js";
import { vibeKillTool } from "./vibe-kill-tool.js";
import { vibeListTool } from "./vibe-list-tool.js";
import { vibeSendTool } from "./vibe-send-tool.js";
import { vibeSpawnTool } from "./vibe-spawn-tool.js";
import { vibeWaitTool } from "./vibe-wait-tool.js";

/**
 * The plugin: vibe_spawn, vibe_send, vibe_wait, vibe_kill and vibe_list. It offers no default roster:
 * which commands run as workers is the host's choice, so a host attaches `VibeRoster` (and the run
 * fact `VibeMode`) only when vibe mode is on, and the tools are absent otherwise.
 */
export const vibePlugin = definePlugin({
  name: "@runbound/tool-vibe",
  version: PACKAGE_VERSION,
  tools: [vibeSpawnTool, vibeSendTool, vibeWaitTool, vibeKillTool, vibeListTool],
});
