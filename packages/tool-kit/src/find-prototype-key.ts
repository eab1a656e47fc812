import { entrySchema, childSchema, type SchemaNode } from "./schema-node.js";

/** Keys through which copying or merging a value can reach an object's prototype instead of a field. */
export const PROTOTYPE_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

interface Pending {
  value: object;
  schema: SchemaNode | undefined;
  /** The object holding this value and its key there, kept as links so a deep value costs no copied paths. */
  via: { holder: Pending; key: string } | undefined;
}

/**
 * Whether no field of `value` can come from its prototype: it has none, or an `Object.prototype`
 * (of any realm, so objects made in a vm context pass), or it is an array. A JSON reader that
 * assigns keys (`object[key] = value`) turns an own `"__proto__"` key into the prototype: such an
 * input arrives with its fields already moved there.
 */
function inheritsNoFields(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function pathOf(holder: Pending, key: string): string[] {
  const path = [key];
  for (let link = holder.via; link !== undefined; link = link.holder.via) path.push(link.key);
  return path.reverse();
}

/**
 * The path of the first own key, at any depth of `value`, that names a prototype: `__proto__` always,
 * `constructor` and `prototype` unless the schema declares a field of that name there; or of the
 * first object whose prototype could carry fields, as its path followed by `__proto__`. JSON.parse
 * makes `"__proto__"` an own key; copied by assignment it would become the copy's prototype and
 * its fields would pass validation as inherited input. The walk uses its own stack, so input nested
 * deeper than the call stack is checked, not a crash.
 */
export function findPrototypeKey(schema: SchemaNode, value: object): string[] | undefined {
  const pending: Pending[] = [{ value, schema, via: undefined }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next.value)) continue;
    seen.add(next.value);
    if (!inheritsNoFields(next.value)) return pathOf(next, "__proto__");
    const keys = Object.keys(next.value);
    for (const key of keys) {
      if (PROTOTYPE_KEYS.includes(key) && (key === "__proto__" || entrySchema(next.schema, key) === undefined))
        return pathOf(next, key);
    }
    // Pushed last to first, so the first offending key in document order is the one named.
    for (const key of keys.reverse()) {
      const child: unknown = (next.value as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null)
        pending.push({ value: child, schema: childSchema(next.schema, key), via: { holder: next, key } });
    }
  }
  return undefined;
}
