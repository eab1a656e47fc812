import { entrySchema, unwrapSchema, type SchemaNode } from "./schema-node.js";

function acceptsNull(schema: SchemaNode): boolean {
  if (schema.type === "null" || schema.type === "nullable" || schema.type === "nullish") return true;
  return schema.wrapped !== undefined && acceptsNull(schema.wrapped);
}

function isOptional(schema: SchemaNode): boolean {
  return schema.type === "optional" || schema.type === "exact_optional";
}

/**
 * OpenAI strict schemas must list every property as required, so optional fields are exported as
 * nullable and models send `null` for "not given". Map those nulls back to absent before validation,
 * for fields whose own schema does not accept null (runner research §5.2).
 */
export function dropNullOptionals(schema: SchemaNode, value: unknown): unknown {
  const node = unwrapSchema(schema);
  if (Array.isArray(value)) {
    // Only array schemas have `item`; an array sent for anything else is left for validation to name.
    const item = node?.item;
    return item === undefined ? value : value.map((element) => dropNullOptionals(item, element));
  }
  if (typeof value !== "object" || value === null || node?.entries === undefined) return value;
  const fields = Object.entries(value).flatMap(([key, field]): Array<[string, unknown]> => {
    const fieldSchema = entrySchema(node, key);
    if (fieldSchema === undefined) return [[key, field]];
    if (field === null && isOptional(fieldSchema) && !acceptsNull(fieldSchema)) return [];
    return [[key, dropNullOptionals(fieldSchema, field)]];
  });
  // Object.fromEntries defines each key as an own property; assigning `__proto__` would set the copy's prototype instead.
  return Object.fromEntries(fields);
}
