import { ToolError } from "@runbound/tool-kit";

/** What the kernel's child process may touch; everything else is denied by Node's permission model. */
export interface ChildPermissions {
  /** Files and folders it may read (the Pyodide files, its own scripts, the workdir, the wheels). */
  readable: readonly string[];
  /** Folders it may write (the workdir only). */
  writable: readonly string[];
  /** Whether it may start worker threads (the kernel needs one; workers inherit every denial). */
  worker: boolean;
}

/**
 * The flag that turns the permission model on: `--permission` where this Node knows it (22.13+),
 * `--experimental-permission` on Node 20.
 */
export function permissionFlag(knownFlags: ReadonlySet<string>): string {
  return knownFlags.has("--permission") ? "--permission" : "--experimental-permission";
}

/**
 * Node's arguments for a child under the permission model: no child processes, no addons, no WASI,
 * file access limited to the given paths. Node 20 splits an allow-list value at commas, so a path with
 * a comma would grant something else: it is refused.
 */
export function permissionArguments(permissions: ChildPermissions, knownFlags: ReadonlySet<string>): string[] {
  const grant = (flag: string, path: string): string => {
    if (path.includes(",")) {
      throw new ToolError({
        code: "unavailable",
        message: `The path \`${path}\` contains a comma, which Node's permission model reads as a list separator, so the isolated Pyodide kernel cannot be confined to it; use a working directory and package directory without commas.`,
      });
    }
    return `${flag}=${path}`;
  };
  return [
    permissionFlag(knownFlags),
    ...permissions.readable.map((path) => grant("--allow-fs-read", path)),
    ...permissions.writable.map((path) => grant("--allow-fs-write", path)),
    ...(permissions.worker ? ["--allow-worker"] : []),
  ];
}
