/** The parts of a valibot schema these rules walk; valibot keeps them as plain properties. */
interface ValibotNode {
  type?: string;
  wrapped?: ValibotNode;
  entries?: Record<string, ValibotNode>;
  item?: ValibotNode;
  items?: ValibotNode[];
  options?: ValibotNode[];
  rest?: ValibotNode;
  value?: ValibotNode;
  getter?: (input: unknown) => ValibotNode;
}

const optionalTypes = new Set(["optional", "exact_optional"]);
const nullTypes = new Set(["null", "nullable", "nullish"]);

function acceptsNull(schema: ValibotNode): boolean {
  if (nullTypes.has(schema.type ?? "")) return true;
  return schema.wrapped !== undefined && acceptsNull(schema.wrapped);
}

// Mirrors the reach of tool-kit's `dropNullOptionals`: the host reads `null` as "not given" only for
// fields it reaches through objects, arrays and optional/nullable wrappers. An optional field anywhere
// else would receive the `null` an openai-strict schema makes the model send, and fail validation.
function children(node: ValibotNode): Array<{ node: ValibotNode; step: string; reached: boolean }> {
  const list: Array<{ node: ValibotNode; step: string; reached: boolean }> = [];
  if (node.wrapped !== undefined) list.push({ node: node.wrapped, step: "", reached: true });
  for (const [key, entry] of Object.entries(node.entries ?? {}))
    list.push({ node: entry, step: `.${key}`, reached: true });
  if (node.item !== undefined) list.push({ node: node.item, step: "[]", reached: true });
  const combinator = node.type === "intersect" ? "allOf" : "anyOf";
  node.options?.forEach((option, index) =>
    list.push({ node: option, step: ` (${combinator} option ${index + 1})`, reached: false }),
  );
  node.items?.forEach((item, index) => list.push({ node: item, step: `[${index}]`, reached: false }));
  if (node.rest !== undefined)
    list.push({ node: node.rest, step: node.entries === undefined ? "[]" : "{key}", reached: false });
  if (node.value !== undefined) list.push({ node: node.value, step: "{key}", reached: false });
  if (node.getter !== undefined) list.push({ node: node.getter(undefined), step: "", reached: false });
  return list;
}

function constructName(type: string | undefined): string {
  switch (type) {
    case "union":
      return "a `v.union` option";
    case "variant":
      return "a `v.variant` option";
    case "intersect":
      return "a `v.intersect` part";
    case "lazy":
      return "a `v.lazy` schema";
    case "record":
      return "a `v.record` value";
    default:
      return "a `v.tuple` item";
  }
}

/**
 * What openai-strict cannot express that only the valibot schema shows: a `v.looseObject` (its unknown
 * keys reach the tool; JSON Schema writes it like `v.object`), and an optional field the host cannot
 * read `null` as absent for. One full sentence per problem.
 */
export function openAiStrictValibotViolations(schema: unknown): string[] {
  const violations: string[] = [];
  // A `v.lazy` schema may return itself: each node is judged once where the host reaches it and once where it does not.
  const seen = { reached: new Set<ValibotNode>(), unreached: new Set<ValibotNode>() };
  const visit = (node: ValibotNode, path: string, unreachedBy: string | undefined): void => {
    const judged = unreachedBy === undefined ? seen.reached : seen.unreached;
    if (judged.has(node)) return;
    const firstVisit = !seen.reached.has(node) && !seen.unreached.has(node);
    judged.add(node);
    if (node.type === "loose_object" && firstVisit) {
      violations.push(
        `\`${path}\` is a \`v.looseObject\`, whose unknown keys reach the tool, which openai-strict cannot express (every object must be closed); use \`v.object\` or \`v.strictObject\`, or export with the \`json\` profile.`,
      );
    }
    for (const child of children(node)) {
      const childPath = path + child.step;
      const below = child.reached ? unreachedBy : (unreachedBy ?? constructName(node.type));
      if (
        node.entries !== undefined &&
        child.step.startsWith(".") &&
        below !== undefined &&
        optionalTypes.has(child.node.type ?? "") &&
        !acceptsNull(child.node)
      ) {
        violations.push(
          `\`${childPath}\` is optional inside ${below}, which openai-strict cannot express (the model sends \`null\` for a field it leaves out, and the host reads \`null\` as absent only through objects, arrays and optional or nullable wrappers); make it \`v.nullish\` or required, or export with the \`json\` profile.`,
        );
      }
      visit(child.node, childPath, below);
    }
  };
  visit(schema as ValibotNode, "input", undefined);
  return violations;
}
