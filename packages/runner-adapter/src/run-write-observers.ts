import type { AnyResourceKey, ProgressUpdate, RunInfo, ToolContent, WriteObserver } from "@runbound/tool-kit";
import { withBudget } from "@runbound/runtime-kit";

/** What {@link runWriteObservers} needs from the run. */
export interface ObserverRunContext {
  attachedIds: ReadonlySet<string>;
  resourceGetter: (owner: string, declared: readonly AnyResourceKey[]) => (key: AnyResourceKey) => never;
  run: RunInfo;
  signal: AbortSignal;
  timeoutMs: number;
  /** The progress of the call that wrote. */
  progress: (update: ProgressUpdate) => void;
}

/**
 * Let every observer whose resources are attached look at the written files, each within its own
 * budget. An observer that fails or runs out of time adds a note instead of failing the write, which
 * has already happened.
 */
export async function runWriteObservers(
  observers: readonly WriteObserver[],
  paths: readonly string[],
  context: ObserverRunContext,
): Promise<ToolContent[]> {
  const active = observers.filter((observer) =>
    (observer.requires as readonly AnyResourceKey[]).every((key) => context.attachedIds.has(key.id)),
  );
  const answers = await Promise.all(
    active.map(async (observer): Promise<readonly ToolContent[]> => {
      const label = `Write observer \`${observer.name}\``;
      try {
        const budget = withBudget(
          (signal) =>
            observer.observe(paths, {
              resource: context.resourceGetter(label, observer.requires),
              signal,
              run: context.run,
              progress: context.progress,
            }),
          { timeoutMs: context.timeoutMs, signal: context.signal, label },
        );
        return (await budget.result) ?? [];
      } catch (error) {
        return [
          {
            type: "text",
            text: `(${label} could not finish: ${error instanceof Error ? error.message : String(error)})`,
          },
        ];
      }
    }),
  );
  return answers.flat();
}
