/** The parts of a valibot schema that input checking walks; valibot keeps them as plain properties. */
export interface SchemaNode {
  type?: string;
  expects?: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode | undefined>;
  item?: SchemaNode;
}

/** `schema` without its optional/nullable wrappers. */
export function unwrapSchema(schema: SchemaNode | undefined): SchemaNode | undefined {
  let node = schema;
  while (node?.wrapped !== undefined) node = node.wrapped;
  return node;
}

/** The schema an object declares for its field `key`; never one of `Object.prototype`'s members. */
export function entrySchema(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
  const entries = unwrapSchema(schema)?.entries;
  return entries !== undefined && Object.hasOwn(entries, key) ? entries[key] : undefined;
}

/** The schema of the value under `key` of a value described by `schema`: an object's entry or an array's item. */
export function childSchema(schema: SchemaNode | undefined, key: unknown): SchemaNode | undefined {
  const node = unwrapSchema(schema);
  return node?.entries !== undefined ? entrySchema(node, String(key)) : node?.item;
}
