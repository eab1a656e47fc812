import { definePlugin, type Plugin } from "@runbound/tool-kit";
import { createAskUserTool, type AskUserSettings } from "./ask-user-tool.js";
import { PACKAGE_VERSION } from "./version.js";

/**
 * The plugin with `ask_user`, answering within `settings.timeoutMs`. It offers no default resource:
 * only the host knows whether a human is there (a TTY, an MCP client that declared elicitation, its
 * own UI), and a port guessed for it would either block a headless run or fail every question.
 */
export function createAskPlugin(settings: AskUserSettings = {}): Plugin {
  return definePlugin({ name: "@runbound/tool-ask", version: PACKAGE_VERSION, tools: [createAskUserTool(settings)] });
}

/** The plugin with the default 10-minute answer budget. */
export const askPlugin = createAskPlugin();
