import { mkdtemp, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary workdir with files; `cleanup` removes it. */
export interface TempWorkspace {
  dir: string;
  write(path: string, content: string | Buffer): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createTempWorkspace(files: Record<string, string | Buffer> = {}): Promise<TempWorkspace> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "runbound-astgrep-")));
  const write = async (path: string, content: string | Buffer): Promise<string> => {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    return full;
  };
  for (const [path, content] of Object.entries(files)) await write(path, content);
  return { dir, write, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
