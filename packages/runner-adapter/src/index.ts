export { MAIN_CALLER, PLAN_CALLER } from "./callers.js";
export {
  allowAll,
  askFor,
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
  type Approver,
} from "./approval.js";
export { isToolVisible, whyToolHidden, type ToolHiddenReason } from "@runbound/tool-kit";
export { capOutput, DEFAULT_OUTPUT_LIMIT_BYTES } from "./cap-output.js";
export {
  createRun,
  type ApproveOptions,
  type CallOptions,
  type CloseOptions,
  type Run,
  type RunSettings,
  type ToolStatus,
} from "./create-run.js";
export { JSON_SCHEMA_DIALECT, SCHEMA_PROFILES, type SchemaProfile } from "./schema/schema-profile.js";
export { unexportableProfiles } from "./schema/unexportable-profiles.js";
export { exportInputSchema } from "./schema/export-input-schema.js";
export { exportToolSchemas, type ToolListFormat } from "./schema/export-tool-schemas.js";
export { schemaProfileViolations } from "./schema/schema-profile-violations.js";
export type { JsonSchemaNode } from "./schema/json-schema-node.js";
export { attachDefaultResources, type DefaultResourcesSettings } from "./attach-default-resources.js";
