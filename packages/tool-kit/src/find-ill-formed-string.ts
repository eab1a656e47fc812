// Without the `u` flag a regular expression reads UTF-16 code units, so it can see half of a pair:
// a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const loneSurrogates = new RegExp(loneSurrogate.source, "g");

/** A string in a call's input that is not well-formed UTF-16: where it is and which code unit is alone. */
export interface IllFormedString {
  /** The keys from the input's root to the value holding the string (for a key: to the object holding it). */
  path: string[];
  /** True when the string is a key of the object at `path`; false when it is the value at `path`. */
  inKey: boolean;
  /** The string itself, as sent. */
  text: string;
  /** The position of the lone surrogate in `text`, in UTF-16 code units from 0. */
  index: number;
  /** The lone surrogate, e.g. 0xd800. */
  codeUnit: number;
}

/** The position of the first lone surrogate in `text`, or -1 when the text is well-formed. */
export function loneSurrogateIndex(text: string): number {
  return text.search(loneSurrogate);
}

/**
 * `text` with every lone surrogate written as a `\uXXXX` escape, so a message can quote what the
 * caller sent and still be well-formed text itself (JSON encoders, UTF-8 writers and MCP clients
 * would otherwise turn it into U+FFFD or fail).
 */
export function escapeLoneSurrogates(text: string): string {
  return text.replace(loneSurrogates, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

interface Pending {
  value: unknown;
  /** Whether `value` is a key of the object `via` leads to, rather than the value under that key. */
  isKey: boolean;
  /** The object holding this value and its key there, kept as links so a deep value costs no copied paths. */
  via: { holder: Pending; key: string } | undefined;
}

function pathOf(item: Pending): string[] {
  const path: string[] = [];
  for (let link = item.via; link !== undefined; link = link.holder.via) path.push(link.key);
  return path.reverse();
}

/**
 * The first string, key or value, at any depth of `value` (objects, arrays, records) that holds a lone
 * surrogate, in document order (a key before its value); undefined when every string is well-formed.
 * Such a string has no UTF-8 form: whatever carries it on (a path to the file system, a DAP or
 * JSON-RPC message to a child process) silently changes it or breaks. The walk uses its own stack, so
 * input nested deeper than the call stack is checked, not a crash; an object seen twice is walked once.
 */
export function findIllFormedString(value: unknown): IllFormedString | undefined {
  const pending: Pending[] = [{ value, isKey: false, via: undefined }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current === "string") {
      const index = loneSurrogateIndex(current);
      if (index < 0) continue;
      // A key is reported at the object holding it: the path stops before the key itself.
      const path = pathOf(next);
      return {
        path: next.isKey ? path.slice(0, -1) : path,
        inKey: next.isKey,
        text: current,
        index,
        codeUnit: current.charCodeAt(index),
      };
    }
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    // Pushed last to first, each value under its key, so the first offender in document order is named.
    for (const key of Object.keys(current).reverse()) {
      const via = { holder: next, key };
      pending.push({ value: (current as Record<string, unknown>)[key], isKey: false, via });
      if (!Array.isArray(current)) pending.push({ value: key, isKey: true, via });
    }
  }
  return undefined;
}
