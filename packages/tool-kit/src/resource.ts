import { SPECIFICATION_VERSION, type SpecificationVersion } from "./specification-version.js";

declare const valueType: unique symbol;

/**
 * A typed key for a live resource a host attaches to a run (a language-server supervisor, a parser,
 * a human operator port…). Two keys are the same resource when their `id`s are equal.
 */
export interface ResourceKey<T> {
  /** Contract version. */
  readonly specificationVersion: SpecificationVersion;
  /** Stable id, e.g. `lsp.supervisor`. */
  readonly id: string;
  /** One sentence for humans: what the resource is and who usually provides it. */
  readonly description: string;
  /** Type-level only: the value attached under this key. */
  readonly [valueType]?: T;
}

/** Any resource key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceKey = ResourceKey<any>;

/** The value type attached under a resource key. */
export type ResourceValue<K> = K extends ResourceKey<infer T> ? T : never;

const resourceIdPattern = /^[a-z][a-z0-9_.-]*$/;

/**
 * Declare a resource. Call it once, at module level, in the package that implements the resource.
 *
 * @param id - lowercase, dotted: `<package>.<thing>`, e.g. `astgrep.parser`.
 * @param description - what the resource is, for `status` output and error messages.
 */
export function defineResource<T>(id: string, description: string): ResourceKey<T> {
  if (!resourceIdPattern.test(id)) {
    throw new TypeError(
      `Resource id \`${id}\` is not valid. Use lowercase letters, digits, '.', '_' and '-', starting with a letter.`,
    );
  }
  return Object.freeze({ specificationVersion: SPECIFICATION_VERSION, id, description });
}

/** A resource value with an optional way to release it, as a host attaches it. */
export interface ResourceInstance<T> {
  /** The live value tools receive through `ctx.resource(key)`. */
  value: T;
  /** Releases processes, files or handles. Called once, when the resource is detached or the run ends. */
  dispose?: () => void | Promise<void>;
  /**
   * For a host's status view: what this instance can do right now (e.g. which language servers could
   * start and why not). Must not start anything.
   */
  describe?: () => string | Promise<string>;
}

/** What a resource provider receives when a runner asks it for a default instance. */
export interface ResourceProviderContext {
  /** The run's working directory (absolute, symlinks resolved). */
  workdir: string;
  /** Aborted when the runner gives up on creating the resource. */
  signal: AbortSignal;
}

/**
 * How a plugin offers a default instance of a resource for a working directory, so a generic runner
 * (the `runbound` CLI) can attach it without knowing the plugin.
 */
export interface ResourceProvider<T> {
  /** Contract version. */
  readonly specificationVersion: SpecificationVersion;
  /** The resource this provider creates. */
  readonly key: ResourceKey<T>;
  /** Create the instance. Must not block on a program that may be missing; report that through the tools instead. */
  create(context: ResourceProviderContext): ResourceInstance<T> | Promise<ResourceInstance<T>>;
}

/** Declare a {@link ResourceProvider}. */
export function defineResourceProvider<T>(
  provider: Omit<ResourceProvider<T>, "specificationVersion">,
): ResourceProvider<T> {
  return Object.freeze({ specificationVersion: SPECIFICATION_VERSION, ...provider });
}
