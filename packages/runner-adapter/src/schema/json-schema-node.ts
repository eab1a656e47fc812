/** A JSON Schema node, loosely typed: the exporters only walk and rewrite it. */
export type JsonSchemaNode = { [keyword: string]: unknown };

/** A sub-schema and how to name the value it describes, relative to its parent's path. */
interface ChildSchema {
  node: JsonSchemaNode;
  step: string;
}

function isNode(value: unknown): value is JsonSchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const childListKeywords = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const childMapKeywords = ["properties", "$defs", "definitions"] as const;

function listStep(keyword: (typeof childListKeywords)[number], index: number): string {
  return keyword === "prefixItems" ? `[${index}]` : ` (${keyword} option ${index + 1})`;
}

function mapStep(keyword: (typeof childMapKeywords)[number], key: string): string {
  return keyword === "properties" ? `.${key}` : ` ${keyword}.${key}`;
}

function childSchemasWithSteps(node: JsonSchemaNode): ChildSchema[] {
  const children: ChildSchema[] = [];
  for (const keyword of childListKeywords) {
    const list = node[keyword];
    if (Array.isArray(list))
      list.forEach((child, index) => isNode(child) && children.push({ node: child, step: listStep(keyword, index) }));
  }
  for (const keyword of childMapKeywords) {
    const map = node[keyword];
    if (isNode(map))
      for (const [key, child] of Object.entries(map))
        if (isNode(child)) children.push({ node: child, step: mapStep(keyword, key) });
  }
  const steps: Record<string, string> = {
    items: "[]",
    additionalProperties: "{key}",
    propertyNames: " (key)",
    not: " (not)",
  };
  for (const [keyword, step] of Object.entries(steps)) {
    const child = node[keyword];
    if (isNode(child)) children.push({ node: child, step });
  }
  return children;
}

/**
 * Call `visit` on `node` and every node below it, parents first, with the path of the value each
 * describes (`input.options[].label`; a union's branches as `(anyOf option 2)`).
 */
export function walkSchema(node: JsonSchemaNode, visit: (node: JsonSchemaNode, path: string) => void): void {
  const visitNode = (current: JsonSchemaNode, path: string): void => {
    visit(current, path);
    for (const child of childSchemasWithSteps(current)) visitNode(child.node, path + child.step);
  };
  visitNode(node, "input");
}
