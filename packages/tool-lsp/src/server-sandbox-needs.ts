import {
  findExecutable,
  goSandboxNeeds,
  isInside,
  pathDirectories,
  sandboxedNodeProgramPaths,
  sandboxedPython,
  type SandboxNeeds,
} from "@runbound/runtime-kit";

/** What a language server or project checker needs of the host to run in a sandbox. */
export interface ServerSandboxNeeds extends SandboxNeeds {
  /**
   * The interpreter pyright resolves imports with: on the host it runs the `python` on PATH, which in
   * a sandbox may be a version manager's shim that cannot run there; it is named instead (the
   * server's `python.pythonPath`, the checker's `--pythonpath`).
   */
  pythonPath?: string;
}

/** Which server a program belongs to, and where it runs. */
export interface ServerProgram {
  /** The server spec's id (`typescript`, `python`, `go`, …). */
  serverId: string;
  /** The program, absolute. */
  program: string;
  /** The project root. */
  root: string;
  workdir: string;
  /** The environment it would get on the host (its PATH finds node, go, python). */
  env: NodeJS.ProcessEnv;
}

/**
 * What a language server or its project checker needs of the host in a sandbox: a Node program's
 * `node_modules` tree and node; for Go, the toolchain, the module cache and a build cache of the
 * project's own (`lsp-go-build`); for pyright, the interpreter on PATH, itself, with its prefix.
 */
export async function serverSandboxNeeds(server: ServerProgram): Promise<ServerSandboxNeeds> {
  const nodePaths = await sandboxedNodeProgramPaths(server.program, server.env["PATH"]);
  const needs: ServerSandboxNeeds = { readOnlyPaths: nodePaths, writablePaths: [], env: {} };
  if (server.serverId === "go") {
    const go = await goSandboxNeeds(server.root, server.env, "lsp-go-build");
    return {
      readOnlyPaths: [...needs.readOnlyPaths, ...go.readOnlyPaths],
      writablePaths: go.writablePaths,
      env: go.env,
    };
  }
  if (server.serverId === "python") {
    const python = await findExecutable(["python3", "python"], pathDirectories(server.env["PATH"]));
    if (python === undefined) return needs;
    const placed = await sandboxedPython(python, { fromProject: isInside(server.workdir, python), cwd: server.root });
    return { ...needs, readOnlyPaths: [...needs.readOnlyPaths, ...placed.readOnlyPaths], pythonPath: placed.command };
  }
  return needs;
}
