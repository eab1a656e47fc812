import type { Run } from "@runbound/runner-adapter";
import { AskPort, createPortApprover } from "@runbound/tool-ask";
import { TargetSpace, type Tier, type TargetSpaceInfo } from "@runbound/tool-kit";

/**
 * A human is there: attach the port `ask_user` asks through and where its cards are shown, and when
 * some tiers need approval (`--ask`), ask those permission prompts through the same port (allow once,
 * always for this tool in this run, deny). Without this, `ask_user` is absent and an "ask" is denied.
 */
export async function attachAskPort(
  run: Run,
  port: AskPort,
  space: TargetSpaceInfo,
  askTiers: readonly Tier[],
): Promise<void> {
  await run.attach(AskPort, { value: port });
  await run.attach(TargetSpace, { value: space });
  if (askTiers.length > 0) run.setApprover(createPortApprover(port));
}
