export { SPECIFICATION_VERSION, type SpecificationVersion } from "./specification-version.js";
export { TIERS, isTier, lowerTier, tierAllows, type Tier } from "./tier.js";
export { ToolError, type ToolErrorCode, type ToolErrorOptions } from "./tool-error.js";
export {
  resultText,
  textResult,
  toToolResult,
  type ImageContent,
  type TextContent,
  type ToolContent,
  type ToolOutput,
  type ToolResult,
} from "./content.js";
export { abortedError } from "./aborted-error.js";
export { errorResult, resultErrorCode } from "./error-result.js";
export {
  defineResource,
  defineResourceProvider,
  type AnyResourceKey,
  type ResourceInstance,
  type ResourceKey,
  type ResourceProvider,
  type ResourceProviderContext,
  type ResourceValue,
} from "./resource.js";
export {
  ConversationId,
  TargetSpace,
  VibeMode,
  Workdir,
  type TargetSpaceInfo,
  type VibeModeInfo,
} from "./run-facts.js";
export {
  assertValidTool,
  defineTool,
  type AnyTool,
  type CallerInfo,
  type ProgressUpdate,
  type RunInfo,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolHints,
} from "./define-tool.js";
export { defineWriteObserver, type WriteObserver, type WriteObserverContext } from "./write-observer.js";
export { assertValidPlugin, definePlugin, type Plugin, type PluginDefinition } from "./define-plugin.js";
export { parseToolInput } from "./parse-tool-input.js";
export { shortenForMessage } from "./shorten-for-message.js";
export { isToolVisible, whyToolHidden, type ToolHiddenReason } from "./is-tool-visible.js";
