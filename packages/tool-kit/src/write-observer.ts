import type { ToolContent } from "./content.js";
import type { ProgressUpdate, RunInfo } from "./define-tool.js";
import type { AnyResourceKey, ResourceValue } from "./resource.js";
import { SPECIFICATION_VERSION, type SpecificationVersion } from "./specification-version.js";

/** What a write observer receives besides the written paths. */
export interface WriteObserverContext<K extends AnyResourceKey = never> {
  /** The value attached under one of the keys the observer declared. */
  resource<R extends K>(key: R): ResourceValue<R>;
  /** Aborted when the observer's budget runs out or the run ends. */
  signal: AbortSignal;
  /** The run and the caller of the call that wrote. */
  run: RunInfo;
  /** Report progress as part of the call that wrote (e.g. "waiting for the TypeScript server to load the project"). */
  progress(update: ProgressUpdate): void;
}

/**
 * Runs after any call that reported `ctx.wrote(paths)` (the runner's own file tools included) and may
 * append content to that call's result, e.g. newly introduced diagnostics.
 */
export interface WriteObserver<K extends AnyResourceKey = AnyResourceKey> {
  /** Contract version. */
  readonly specificationVersion: SpecificationVersion;
  /** A name for logs and errors. */
  name: string;
  /** The observer runs only while all of these are attached. */
  requires: readonly K[];
  /** Look at the written files (absolute paths); return content to append, or nothing. */
  observe(paths: readonly string[], context: WriteObserverContext<K>): Promise<readonly ToolContent[] | undefined>;
}

/** Declare a {@link WriteObserver}. */
export function defineWriteObserver<const K extends AnyResourceKey = never>(
  observer: Omit<WriteObserver<K>, "specificationVersion">,
): WriteObserver<K> {
  return Object.freeze({ ...observer, specificationVersion: SPECIFICATION_VERSION });
}
