import type { Plugin } from "@runbound/tool-kit";
import { fileToolsPlugin } from "./file-tools/file-tools-plugin.js";

/**
 * The plugins the reference runner always loads: its own file tools and every official tool package
 * (batteries included). Loaded lazily so `--help` stays fast and a broken native addon only fails the
 * commands that need tools.
 */
export async function loadOfficialPlugins(): Promise<Plugin[]> {
  const officialPackages = await Promise.all([import("@runbound/tool-astgrep"), import("@runbound/tool-lsp")]);
  return [fileToolsPlugin, ...officialPackages.map((module) => module.default)];
}
