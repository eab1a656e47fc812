import type { AnyTool, ToolError } from "@runbound/tool-kit";
import { exportInputSchema } from "./export-input-schema.js";
import { SCHEMA_PROFILES, type SchemaProfile } from "./schema-profile.js";

/**
 * The profiles a tool's input schema cannot be exported in, each with the error `exportInputSchema`
 * throws for it (naming the fields, the constructs and the way out). Empty when every profile works.
 */
export function unexportableProfiles(tool: AnyTool): ReadonlyMap<SchemaProfile, ToolError> {
  const refused = new Map<SchemaProfile, ToolError>();
  for (const profile of SCHEMA_PROFILES) {
    try {
      exportInputSchema(tool, profile);
    } catch (error) {
      refused.set(profile, error as ToolError);
    }
  }
  return refused;
}
