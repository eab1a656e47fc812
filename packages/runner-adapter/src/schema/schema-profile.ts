/**
 * The JSON Schema dialects a tool's input is exported in:
 * - `json`: faithful JSON Schema (draft-07) of the valibot schema.
 * - `openai-strict`: OpenAI strict function calling — every object closed, every property required
 *   (optional ones widened to nullable), no `default`, an object at the root.
 * - `anthropic`: Anthropic `input_schema` — an object at the root, no `$schema` header.
 */
export type SchemaProfile = "json" | "openai-strict" | "anthropic";

/** Every {@link SchemaProfile}. */
export const SCHEMA_PROFILES: readonly SchemaProfile[] = ["json", "openai-strict", "anthropic"];
