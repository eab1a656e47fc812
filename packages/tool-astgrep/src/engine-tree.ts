import type { TreeStore } from "@runbound/astgrep-engine";

/** A tree the native engine keeps: its store and id there. */
export interface EngineTree {
  readonly store: TreeStore;
  readonly id: number;
}
