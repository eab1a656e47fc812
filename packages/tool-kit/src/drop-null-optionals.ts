import { entrySchema, type SchemaNode } from "./schema-node.js";

/** Copy as a data property: assigning `__proto__` would set the copy's prototype instead. */
function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function acceptsNull(schema: SchemaNode): boolean {
  if (schema.type === "null" || schema.type === "nullable" || schema.type === "nullish") return true;
  return schema.wrapped !== undefined && acceptsNull(schema.wrapped);
}

function unwrap(schema: SchemaNode): SchemaNode {
  return schema.wrapped !== undefined && (schema.type === "optional" || schema.type === "exact_optional") ? unwrap(schema.wrapped) : schema;
}

/**
 * OpenAI strict schemas must list every property as required, so optional fields are exported as
 * nullable and models send `null` for "not given". Map those nulls back to absent before validation,
 * for fields whose own schema does not accept null (runner research §5.2).
 */
export function dropNullOptionals(schema: SchemaNode, value: unknown): unknown {
  const node = unwrap(schema);
  if (Array.isArray(value) && node.type === "array" && node.item !== undefined) {
    return value.map((item) => dropNullOptionals(node.item!, item));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || node.entries === undefined) return value;
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const fieldSchema = entrySchema(node, key);
    if (fieldSchema === undefined) {
      setField(result, key, field);
      continue;
    }
    const optional = fieldSchema.type === "optional" || fieldSchema.type === "exact_optional";
    if (field === null && optional && !acceptsNull(fieldSchema)) continue;
    setField(result, key, dropNullOptionals(fieldSchema, field));
  }
  return result;
}
