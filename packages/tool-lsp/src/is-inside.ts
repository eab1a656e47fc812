import { isAbsolute, relative, sep } from "node:path";

/** Whether `candidate` is `root` or below it (both absolute). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
