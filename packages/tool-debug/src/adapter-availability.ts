import {
  isLocated,
  type AdapterDefinition,
  type AdapterId,
  type LocateContext,
  type LocatedAdapter,
} from "./adapter-table.js";
import { displayPath, findNearestMarker, type FoundMarker } from "@runbound/runtime-kit";

/** One adapter's availability for a directory, with the reason in a sentence. */
export interface AdapterAvailability {
  /** The adapter. */
  id: AdapterId;
  /** True iff a root marker AND the adapter's program were found. */
  available: boolean;
  /** The marker found, or undefined. */
  marker?: FoundMarker;
  /** The program found, or undefined. */
  located?: LocatedAdapter;
  /** Why it is (not) available: which marker, where the program was looked for. */
  reason: string;
}

/** Settings shared by every availability check. */
export type AvailabilityContext = Omit<LocateContext, "root"> & { workdir: string };

/**
 * Check one adapter for a directory: the nearest root marker from `start` up to the workdir AND its
 * program. Both are always checked, so the reason names every missing part. Starts nothing but the
 * cached debugpy import probe; never the debuggee.
 */
export async function checkAdapter(
  adapter: AdapterDefinition,
  start: string,
  context: AvailabilityContext,
): Promise<AdapterAvailability> {
  const marker = await findNearestMarker(start, context.workdir, [adapter.markers], { filesOnly: true });
  const located = await adapter.locate({ ...context, root: marker?.directory ?? start });
  const markerText =
    marker === undefined
      ? `no ${adapter.markers.join(", ")} in \`${displayPath(context.workdir, start)}\` or above it up to the workdir`
      : `${marker.name} found in \`${displayPath(context.workdir, marker.directory)}\``;
  const binaryText = isLocated(located)
    ? `found ${located.detail}`
    : `no ${located.sought} (looked in ${located.looked.join(", ")})`;
  const available = marker !== undefined && isLocated(located);
  return {
    id: adapter.id,
    available,
    ...(marker === undefined ? {} : { marker }),
    ...(isLocated(located) ? { located } : {}),
    reason: `${markerText}; ${binaryText}.`,
  };
}
