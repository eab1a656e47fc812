/**
 * The contract version every runbound object carries. A host compares it before using a plugin,
 * so a plugin built against an older tool-kit can still be accepted (or refused with a clear error).
 */
export const SPECIFICATION_VERSION = "tool-v1" as const;

/** The literal type of {@link SPECIFICATION_VERSION}. */
export type SpecificationVersion = typeof SPECIFICATION_VERSION;
