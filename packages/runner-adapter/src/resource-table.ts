import { ToolError, type AnyResourceKey, type ResourceInstance, type ResourceKey } from "@runbound/tool-kit";
import { withBudget } from "@runbound/runtime-kit";

/** The resources attached to one run. */
export interface ResourceTable {
  /** Attach `instance` under its key; a different instance it replaces is disposed. */
  attach<T>(key: ResourceKey<T>, instance: ResourceInstance<T>, graceMs: number): Promise<void>;
  /** Detach and dispose; nothing happens when nothing is attached. */
  detach(key: AnyResourceKey, graceMs: number): Promise<void>;
  has(key: AnyResourceKey): boolean;
  value<T>(key: ResourceKey<T>): T | undefined;
  /** The instance's own `describe()`, a note when it throws, undefined without one. */
  describe(key: AnyResourceKey): Promise<string | undefined>;
  /** The attached resource ids, as visibility needs them. */
  ids(): ReadonlySet<string>;
  /** `ctx.resource` for `owner`: only the keys it declared, and only while attached. */
  getter(owner: string, declared: readonly AnyResourceKey[]): (key: AnyResourceKey) => never;
  /** Detach everything and dispose it all in parallel, each dispose within `graceMs`. */
  disposeAll(graceMs: number): Promise<void>;
}

interface AttachedResource {
  key: AnyResourceKey;
  instance: ResourceInstance<unknown>;
}

async function disposeQuietly(resource: AttachedResource, graceMs: number): Promise<void> {
  const dispose = resource.instance.dispose;
  if (dispose === undefined) return;
  try {
    // Bounded, so a resource that hangs while cleaning up cannot hang `close()` or `detach()`.
    await withBudget(async () => dispose(), {
      timeoutMs: graceMs,
      signal: new AbortController().signal,
      label: `Disposing \`${resource.key.id}\``,
    }).result;
  } catch {
    // A resource that fails to clean up must not keep the others from cleaning up.
  }
}

/** Create an empty table; `onChange` hears every attach and detach (the visible tool set may change). */
export function createResourceTable(onChange: () => void): ResourceTable {
  const attached = new Map<string, AttachedResource>();
  return {
    async attach(key, instance, graceMs) {
      const previous = attached.get(key.id);
      attached.set(key.id, { key, instance: instance as ResourceInstance<unknown> });
      if (previous !== undefined && previous.instance !== instance) await disposeQuietly(previous, graceMs);
      onChange();
    },
    async detach(key, graceMs) {
      const previous = attached.get(key.id);
      if (previous === undefined) return;
      attached.delete(key.id);
      onChange();
      await disposeQuietly(previous, graceMs);
    },
    has: (key) => attached.has(key.id),
    value: <T>(key: ResourceKey<T>) => attached.get(key.id)?.instance.value as T | undefined,
    async describe(key) {
      try {
        return await attached.get(key.id)?.instance.describe?.();
      } catch (error) {
        return `could not describe itself: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    ids: () => new Set(attached.keys()),
    getter(owner, declared) {
      return (key) => {
        if (!declared.some((required) => required.id === key.id)) {
          throw new ToolError({
            code: "internal",
            message: `${owner} asked for resource \`${key.id}\` without declaring it in \`requires\`.`,
          });
        }
        const resource = attached.get(key.id);
        if (resource === undefined) {
          throw new ToolError({
            code: "unavailable",
            message: `Resource \`${key.id}\` was detached during the call. Try again once it is attached.`,
          });
        }
        return resource.instance.value as never;
      };
    },
    async disposeAll(graceMs) {
      const resources = [...attached.values()];
      attached.clear();
      await Promise.all(resources.map((resource) => disposeQuietly(resource, graceMs)));
      onChange();
    },
  };
}
