import type { Run } from "@runbound/runner-adapter";
import { AskPort } from "@runbound/tool-ask";
import { TargetSpace, VibeMode, type AnyResourceKey } from "@runbound/tool-kit";
import { VibeRoster } from "@runbound/tool-vibe";

// The resources this runner attaches only on request or when a human is there; for those, `status`
// and a call that needs one say how to get them instead of "no plugin provides it".
const vibeOff =
  "vibe mode is off. Start runbound with --vibe and --worker-fast <command> and/or --worker-good <command> to let the run spawn background workers";
const noHuman =
  "no human to ask. `runbound call` asks on its terminal when stdin and stdout are both a TTY; `runbound mcp` asks through the client when it declares elicitation; `session` never asks (stdin carries its requests)";

const reasons = new Map<AnyResourceKey, string>([
  [VibeRoster, vibeOff],
  [VibeMode, vibeOff],
  [AskPort, noHuman],
  [TargetSpace, noHuman],
]);

/** Why a resource is not attached, in words a user can act on. */
export function unattachedResourceHint(resourceId: string): string {
  const reason = [...reasons].find(([key]) => key.id === resourceId)?.[1];
  return `not attached: ${reason ?? "no plugin provides it by default"}`;
}

/** Tell the run why each of those resources is not attached now, so a call that needs one says how to get it. */
export function noteUnattachedResources(run: Run): void {
  for (const [key, reason] of reasons) if (!run.isAttached(key)) run.noteUnattached(key, reason);
}
