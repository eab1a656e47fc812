import type { Stats } from "node:fs";
import type { FileSyntaxErrors } from "./syntax-error-ledger.js";

/** What a cached tree is checked against: a file's size, mtime and inode, as `fs.Stats` has them. */
export type FileIdentity = Pick<Stats, "size" | "mtimeMs" | "ino">;

/** A parsed file kept between searches; `Root` is the tree of the backend that parsed it (napi's `SgRoot`, an `EngineTree`). */
export interface CachedTree<Root> {
  readonly path: string;
  readonly language: string;
  readonly bytes: Buffer;
  readonly root: Root;
  readonly hasBom: boolean;
  /**
   * The tree's ERROR nodes, summarized once a search looked for them (they do not depend on the
   * pattern): later searches match the pattern alone instead of looking for them again.
   */
  syntaxErrors?: { summary: FileSyntaxErrors | undefined };
}
