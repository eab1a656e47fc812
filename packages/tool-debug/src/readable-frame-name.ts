/**
 * A frame's function name without the `::h` + 16 hex digits that Rust's legacy symbol mangling
 * leaves on every demangled name (`rust_app::main::hdef004be3889c5e0`): the hash tells a reader
 * nothing and costs a model tokens in every stack.
 */
export function readableFrameName(name: string): string {
  return name.replace(/::h[0-9a-f]{16}\b/g, "");
}
