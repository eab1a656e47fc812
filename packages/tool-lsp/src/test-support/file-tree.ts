import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temporary directory holding `files` (relative paths, each with `content`). */
export function fileTree(files: readonly string[], content = ""): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-tree-")));
  for (const file of files) {
    mkdirSync(dirname(join(workdir, file)), { recursive: true });
    writeFileSync(join(workdir, file), content);
  }
  return workdir;
}

/** A fresh temporary directory holding each of `files` (relative path → its text). */
export function fileTreeWith(files: Readonly<Record<string, string>>): string {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), "runbound-tree-")));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workdir, file)), { recursive: true });
    writeFileSync(join(workdir, file), text);
  }
  return workdir;
}
