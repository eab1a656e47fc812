import { AskPort } from "@runbound/tool-ask";
import { TargetSpace, VibeMode } from "@runbound/tool-kit";
import { VibeRoster } from "@runbound/tool-vibe";

// The resources this runner attaches only on request or when a human is there; for those, `status`
// says how to get them instead of "no plugin provides it".
const vibeHint = "not attached: vibe mode is off. Start runbound with --vibe and --worker-fast <command> and/or --worker-good <command> to let the run spawn background workers";
const askHint =
  "not attached: no human to ask. `runbound call` asks on its terminal when stdin and stdout are both a TTY; `runbound mcp` asks through the client when it declares elicitation; `session` never asks (stdin carries its requests)";

const hints: Record<string, string> = {
  [VibeRoster.id]: vibeHint,
  [VibeMode.id]: vibeHint,
  [AskPort.id]: askHint,
  [TargetSpace.id]: askHint,
};

/** Why a resource is not attached, in words a user can act on. */
export function unattachedResourceHint(resourceId: string): string {
  return hints[resourceId] ?? "not attached: no plugin provides it by default";
}
