// The escapes of Rust's legacy symbol mangling that lldb leaves in a name
// (rustc_symbol_mangling/src/legacy.rs): `$LT$` for `<`, `$u7b$` for `{`, `..` for `::`.
const LEGACY_ESCAPES: Record<string, string> = {
  SP: "@",
  BP: "*",
  RF: "&",
  LT: "<",
  GT: ">",
  LP: "(",
  RP: ")",
  C: ",",
};

function demangleLegacySegment(segment: string): string {
  if (!segment.includes("$") && !segment.includes("..")) return segment;
  // A segment that would start with `$` is written with a `_` before it.
  const body = segment.startsWith("_$") ? segment.slice(1) : segment;
  return body
    .replace(/\$(SP|BP|RF|LT|GT|LP|RP|C)\$/g, (_match, code: string) => LEGACY_ESCAPES[code]!)
    .replace(/\$u([0-9a-f]{1,6})\$/g, (match, hex: string) => {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : match;
    })
    .replace(/\.\./g, "::");
}

/**
 * A frame's function name as a reader wants it: without the `::h` + 16 hex digits that Rust's legacy
 * symbol mangling leaves on every demangled name (`rust_app::main::hdef004be3889c5e0`), and with that
 * mangling's escapes decoded (`_$u7b$$u7b$closure$u7d$$u7d$` → `{{closure}}`, `_$LT$i32$u20$as$u20$core..iter..Sum$GT$`
 * → `<i32 as core::iter::Sum>`): the hash tells a reader nothing and the escapes cost a model tokens in every stack.
 */
export function readableFrameName(name: string): string {
  const unhashed = name.replace(/::h[0-9a-f]{16}\b/g, "");
  if (!/\$(?:SP|BP|RF|LT|GT|LP|RP|C|u[0-9a-f]{1,6})\$/.test(unhashed)) return unhashed;
  return unhashed.split("::").map(demangleLegacySegment).join("::");
}
