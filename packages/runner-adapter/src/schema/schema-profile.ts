/**
 * The JSON Schema dialects a tool's input is exported in. Each is faithful to the tool's valibot
 * schema or refused (`exportInputSchema` throws, naming the field, the construct and the way out):
 * - `json`: JSON Schema 2020-12 of the valibot schema, an object at the root. MCP's `inputSchema`
 *   and the AI SDK use it.
 * - `openai-strict`: OpenAI strict function calling — every object closed, every property required
 *   (optional ones widened to nullable; the host reads `null` as absent), only the keywords and
 *   types OpenAI's strict mode documents.
 * - `anthropic`: Anthropic `input_schema` — the `json` schema, an object at the root without a
 *   combinator, without the `$schema` header.
 */
export type SchemaProfile = "json" | "openai-strict" | "anthropic";

/** Every {@link SchemaProfile}. */
export const SCHEMA_PROFILES: readonly SchemaProfile[] = ["json", "openai-strict", "anthropic"];

/** The JSON Schema dialect every profile is written in; `tools --format json` names it in `$schema`. */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";
