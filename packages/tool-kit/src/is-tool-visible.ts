import type { AnyTool, CallerInfo } from "./define-tool.js";
import type { AnyResourceKey } from "./resource.js";
import { tierAllows } from "./tier.js";

/** Why a tool is not visible to a caller, or `undefined` when it is. */
export type ToolHiddenReason =
  { kind: "tier"; ceiling: CallerInfo["ceiling"] } | { kind: "resources"; missing: readonly AnyResourceKey[] };

/**
 * THE visibility rule, used both to build the schema a caller sees and to guard dispatch, so the two
 * can never disagree: a tool is visible iff its tier is within the caller's ceiling AND every resource
 * it requires is attached. (Computing these in two places is how runners leak write tools into plan
 * mode; see runner research §0.1–0.2.)
 */
export function whyToolHidden(
  tool: AnyTool,
  caller: CallerInfo,
  attached: ReadonlySet<string>,
): ToolHiddenReason | undefined {
  if (!tierAllows(caller.ceiling, tool.tier)) return { kind: "tier", ceiling: caller.ceiling };
  const missing = (tool.requires as readonly AnyResourceKey[]).filter((key) => !attached.has(key.id));
  return missing.length > 0 ? { kind: "resources", missing } : undefined;
}

/** Whether a tool is visible to a caller; see {@link whyToolHidden}. */
export function isToolVisible(tool: AnyTool, caller: CallerInfo, attached: ReadonlySet<string>): boolean {
  return whyToolHidden(tool, caller, attached) === undefined;
}
