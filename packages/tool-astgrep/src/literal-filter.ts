import type { CompiledPattern } from "./pattern-compiler.js";

/** Whether a file's bytes hold every literal word of the pattern (a file without one cannot match). */
export function literalFilter(compiled: CompiledPattern): (bytes: Buffer) => boolean {
  const literals = compiled.reading.literals.map((literal) => Buffer.from(literal));
  return (bytes) => literals.every((literal) => bytes.includes(literal));
}
