/** A JSON Schema node, loosely typed: the exporters only walk and rewrite it. */
export type JsonSchemaNode = { [keyword: string]: unknown };

const childListKeywords = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const childMapKeywords = ["properties", "$defs", "definitions"] as const;

/** Every sub-schema directly under `node`. */
export function childSchemas(node: JsonSchemaNode): JsonSchemaNode[] {
  const children: JsonSchemaNode[] = [];
  for (const keyword of childListKeywords) {
    const list = node[keyword];
    if (Array.isArray(list)) children.push(...(list as JsonSchemaNode[]));
  }
  for (const keyword of childMapKeywords) {
    const map = node[keyword];
    if (typeof map === "object" && map !== null) children.push(...(Object.values(map) as JsonSchemaNode[]));
  }
  for (const keyword of ["items", "additionalProperties", "not"]) {
    const child = node[keyword];
    if (typeof child === "object" && child !== null && !Array.isArray(child)) children.push(child as JsonSchemaNode);
  }
  return children;
}

/** Call `visit` on `node` and every node below it, parents first. */
export function walkSchema(node: JsonSchemaNode, visit: (node: JsonSchemaNode, isRoot: boolean) => void): void {
  const visitNode = (current: JsonSchemaNode, isRoot: boolean): void => {
    visit(current, isRoot);
    for (const child of childSchemas(current)) visitNode(child, false);
  };
  visitNode(node, true);
}
