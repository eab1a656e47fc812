import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { extname, join } from "node:path";
import { cargoTestBinary } from "./cargo-test-binary.js";
import { findExecutable, pathDirectories, runToCompletion, versionedNames } from "@runbound/runtime-kit";
import type { LaunchSetupCache } from "./launch-setup-cache.js";
import { DEBUGPY_ADAPTER_ARGS } from "./debugpy-quickack.js";
import { withRealInterpreters } from "./real-interpreters.js";
import { rustFormatterCommands } from "./rust-formatters.js";

/** The debug adapters runbound drives. */
export type AdapterId = "debugpy" | "lldb" | "delve" | "dart";

/** How the client reaches the adapter: its stdio, or a socket the adapter dials (dlv has no stdio mode). */
export type AdapterTransport = "stdio" | "dial-in";

/** Where to look for the programs, as the supervisor knows them. */
export interface LocateContext {
  /** The project root: the directory holding the marker. */
  root: string;
  /** The PATH to search. */
  pathVariable: string | undefined;
  /** An interpreter known to have debugpy (a host setting), tried after the project's own. */
  debugpyPython: string | undefined;
  /** The home directory, for Go's default `~/go/bin`. */
  home: string;
}

/** The command that starts an adapter, and what its launch needs to know. */
export interface LocatedAdapter {
  /** The program to run. */
  command: string;
  /** Its arguments; for dial-in adapters `{address}` is replaced with `127.0.0.1:<port>`. */
  args: string[];
  /** For the answer of `adapters`: what was found, e.g. the interpreters chosen. */
  detail: string;
  /** The interpreter the debuggee runs under (debugpy only). */
  debuggeePython?: string;
}

/** Where nothing usable was found, and every place that was searched. */
export interface NotLocated {
  /** The places searched, for the reason. */
  looked: string[];
  /** What was sought, e.g. `lldb-dap, lldb-vscode[-NN]`. */
  sought: string;
}

/** How to launch beyond the program and its arguments (the tool's launch fields). */
export interface LaunchOptions {
  /** debugpy: run this module (`python -m`) instead of a program file. */
  module?: string | undefined;
  /** Variables added to the debuggee's environment (the tool's `env`). */
  programEnv?: Readonly<Record<string, string>> | undefined;
  /** Stop at the program's first line (or entry point). */
  stopOnEntry?: boolean | undefined;
  /** debugpy: false steps and stops in library code too; default true. */
  justMyCode?: boolean | undefined;
  /** `test`: run the project's tests under the debugger (dlv `mode: test`, `python -m pytest`, `cargo test` under lldb). */
  mode?: "test" | undefined;
  /** In test mode, which tests: dlv `-test.run`, pytest `-k`, the cargo test filter. */
  test?: string | undefined;
}

/** What a launch needs from the adapter: the `launch` arguments for a program. */
export interface LaunchRequest extends LaunchOptions {
  /** The program (absolute). */
  program: string;
  /** Its arguments. */
  args: readonly string[];
  /** Its working directory. */
  cwd: string;
  /** Whether `program` is a directory (a Go package). */
  isDirectory: boolean;
  /** A per-session path a build may write its binary to. */
  buildOutput: string;
}

/** One debug adapter: its root markers, how to find and start it, how to launch a program. */
export interface AdapterDefinition {
  /** Its id, as the tool input names it. */
  id: AdapterId;
  /** Files whose presence makes a directory this adapter's project root. */
  markers: readonly string[];
  /** The DAP `adapterID` sent in `initialize`. */
  dapAdapterId: string;
  /** How the client reaches it. */
  transport: AdapterTransport;
  /** Find its program. Cheap: looks at files, never runs the debuggee. */
  locate(context: LocateContext): Promise<LocatedAdapter | NotLocated>;
  /** The `launch` request's arguments. */
  launchArguments(request: LaunchRequest, located: LocatedAdapter): Record<string, unknown>;
  /** The `attach` request's arguments for a debuggee listening on a loopback port; absent when the adapter cannot attach by port. */
  attachArguments?(port: number, cwd: string): Record<string, unknown>;
  /** Whether an attach talks DAP to the port itself (the debuggee runs its own adapter) rather than through a started adapter. */
  attachConnectsDirectly?: boolean;
  /** Whether this program is one this adapter would debug (by its extension), for choosing an adapter. */
  accepts(program: string, isDirectory: boolean): boolean;
  /**
   * The exception filters the adapter offers in `initialize` (`exceptionBreakpointFilters`), as recorded
   * from the versions tested, for `adapters` before any session; a live session uses the adapter's own list.
   */
  exceptionFilters?: readonly string[];
  /** What else it supports beyond line breakpoints, for `adapters` (as its `initialize` answered). */
  features?: string;
  /** Whether op `trace` can record its calls (a profile hook in a Python debuggee). */
  traceCalls?: boolean;
  /** What `mode: "test"` runs with this adapter, for `adapters`; absent when it has no test mode. */
  testMode?: string;
  /** For a test mode that needs a build before the adapter starts (cargo): build, and return the program to launch. */
  prepareTest?(request: {
    program: string;
    isDirectory: boolean;
    root: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
  }): Promise<string>;
  /** Whether a launch may build first (so progress is reported and the handshake gets a longer budget). */
  builds(request: Pick<LaunchRequest, "program" | "isDirectory">): boolean;
  /**
   * Arguments added to every `launch`/`attach` that need a look at the project first (lldb: the Rust
   * formatters of a Cargo project). Settled before the adapter starts (so no adapter outlives a dispose
   * while it runs); never throws. What it learns by asking a program goes in `cache`, which the
   * supervisor keeps for its life.
   */
  launchSetup?(root: string, env: NodeJS.ProcessEnv, cache: LaunchSetupCache): Promise<Record<string, unknown>>;
  /**
   * The located programs as a launch starts them, wherever it runs (debugpy: its interpreters as the
   * binaries, not through a version manager's shim); absent when the located command is started as is.
   */
  startedAs?(located: LocatedAdapter, root: string): Promise<LocatedAdapter>;
}

const debugpyProbes = new Map<string, Promise<boolean>>();

// Whether `python` can import debugpy: `find_spec` only (80–260 ms), never `python -m debugpy
// --version` (1.3 s, and it prints the frozen-modules warning). Cached per interpreter path and
// modification time, so `adapters` stays cheap after the first call.
async function hasDebugpy(python: string): Promise<boolean> {
  const info = await stat(python).catch(() => undefined);
  if (info === undefined) return false;
  const key = `${python}\0${info.mtimeMs}`;
  let probe = debugpyProbes.get(key);
  if (probe === undefined) {
    probe = runToCompletion({
      command: python,
      args: ["-c", "import importlib.util,sys;sys.exit(importlib.util.find_spec('debugpy') is None)"],
      timeoutMs: 10_000,
    }).then(
      (run) => run.ending === "exited" && run.exit.code === 0,
      () => false,
    );
    debugpyProbes.set(key, probe);
  }
  return probe;
}

/** The project's own interpreter: `.venv/bin/python`, then `venv/bin/python` (DESIGN §4 debug). */
export async function projectPython(root: string): Promise<string | undefined> {
  return findExecutable(["python"], [join(root, ".venv", "bin"), join(root, "venv", "bin")]);
}

const debugpy: AdapterDefinition = {
  id: "debugpy",
  markers: ["pyproject.toml", "setup.py", "requirements.txt"],
  dapAdapterId: "debugpy",
  transport: "stdio",
  async locate(context) {
    const project = await projectPython(context.root);
    const onPath = await findExecutable(["python3", "python"], pathDirectories(context.pathVariable));
    // The adapter needs an interpreter that can import debugpy; the debuggee runs under the
    // project's own interpreter whether or not it has debugpy (research/debug.md §4.1, verified on
    // 3.11–3.13), which avoids "debugpy is not installed" for a project venv.
    const candidates = [
      ...new Set([project, context.debugpyPython, onPath].filter((path): path is string => path !== undefined)),
    ];
    for (const python of candidates) {
      if (await hasDebugpy(python)) {
        const debuggeePython = project ?? onPath ?? python;
        return {
          command: python,
          args: [...DEBUGPY_ADAPTER_ARGS],
          detail: `adapter ${python} -m debugpy.adapter, program runs under ${debuggeePython}`,
          debuggeePython,
        };
      }
    }
    return {
      sought: "a Python interpreter that can import debugpy",
      looked:
        candidates.length > 0
          ? candidates
          : [join(context.root, ".venv/bin/python"), join(context.root, "venv/bin/python"), "python3 on PATH"],
    };
  },
  launchArguments(request, located) {
    const test = request.mode === "test";
    // A test run is `python -m pytest [program] [-k test] args`; a module run has no program.
    const module = test ? "pytest" : request.module;
    const args = test
      ? [
          ...(request.program === request.cwd ? [] : [request.program]),
          ...(request.test === undefined ? [] : ["-k", request.test]),
          ...request.args,
        ]
      : [...request.args];
    return {
      type: "python",
      request: "launch",
      ...(module === undefined ? { program: request.program } : { module }),
      args,
      cwd: request.cwd,
      python: [located.debuggeePython ?? located.command],
      console: "internalConsole",
      justMyCode: request.justMyCode ?? true,
      stopOnEntry: request.stopOnEntry ?? false,
      // Python 3.11+ prints four lines about frozen modules on every start without it (debugpy#1251).
      env: { PYDEVD_DISABLE_FILE_VALIDATION: "1", ...request.programEnv },
    };
  },
  // A debuggee started with `python -m debugpy --listen 127.0.0.1:PORT program.py`.
  attachArguments: (port, cwd) => ({
    type: "python",
    request: "attach",
    connect: { host: "127.0.0.1", port },
    cwd,
    justMyCode: true,
  }),
  attachConnectsDirectly: true,
  accepts: (program) => extname(program) === ".py",
  builds: () => false,
  exceptionFilters: ["raised", "uncaught (default)", "userUnhandled"],
  startedAs: withRealInterpreters,
  testMode: "python -m pytest [program] -k <test> (pytest must be installed for the program's interpreter)",
  traceCalls: true,
  features: "conditions, hit conditions, logpoints, function breakpoints; no data breakpoints",
};

const lldb: AdapterDefinition = {
  id: "lldb",
  markers: ["Cargo.toml", "CMakeLists.txt"],
  dapAdapterId: "lldb",
  transport: "stdio",
  async locate(context) {
    const directories = pathDirectories(context.pathVariable);
    // Debian installs only versioned names (lldb-vscode-16, lldb-dap-19) on PATH.
    const [dapNames, vscodeNames, llvmNames] = await Promise.all([
      versionedNames("lldb-dap", directories),
      versionedNames("lldb-vscode", directories),
      versionedNames("llvm", ["/usr/lib"]),
    ]);
    const names = ["lldb-dap", ...dapNames, "lldb-vscode", ...vscodeNames];
    const llvmDirectories = llvmNames.map((name) => join("/usr/lib", name, "bin"));
    const found =
      (await findExecutable(names, directories)) ??
      (await findExecutable(["lldb-dap", "lldb-vscode"], llvmDirectories));
    if (found !== undefined) return { command: found, args: [], detail: found };
    return {
      sought: "lldb-dap, lldb-dap-NN, lldb-vscode or lldb-vscode-NN",
      looked: [...directories, "/usr/lib/llvm-*/bin"],
    };
  },
  launchArguments: (request) => ({
    program: request.program,
    // In test mode `program` is the test binary `cargo test --no-run` built; the filter is its first argument.
    args: [...(request.mode === "test" && request.test !== undefined ? [request.test] : []), ...request.args],
    cwd: request.cwd,
    stopOnEntry: request.stopOnEntry ?? false,
    // lldb-vscode takes the environment as `NAME=value` strings, and adds it to its own.
    ...(request.programEnv === undefined
      ? {}
      : { env: Object.entries(request.programEnv).map(([name, value]) => `${name}=${value}`) }),
  }),
  // A debuggee under `lldb-server gdbserver 127.0.0.1:PORT program` (or any gdb-remote stub).
  attachArguments: (port) => ({ attachCommands: [`gdb-remote 127.0.0.1:${port}`] }),
  accepts: (program, isDirectory) => !isDirectory && ![".py", ".go", ".dart"].includes(extname(program)),
  builds: () => false,
  testMode:
    "cargo test --no-run builds the test binary of the Cargo project (program: the crate directory or a test's source file), run with the filter <test>",
  prepareTest: (request) =>
    cargoTestBinary(request.root, request.program, request.isDirectory, request.env, request.timeoutMs),
  exceptionFilters: ["cpp_catch", "cpp_throw", "objc_catch", "objc_throw", "swift_catch", "swift_throw"],
  features: "conditions, hit conditions, logpoints, function breakpoints; no data breakpoints (lldb-vscode-16)",
  async launchSetup(root, env, cache) {
    const commands = await rustFormatterCommands(root, env, cache);
    return commands.length === 0 ? {} : { initCommands: commands };
  },
};

const delve: AdapterDefinition = {
  id: "delve",
  markers: ["go.mod"],
  dapAdapterId: "go",
  transport: "dial-in",
  async locate(context) {
    const directories = [...pathDirectories(context.pathVariable), join(context.home, "go", "bin")];
    const found = await findExecutable(["dlv"], [...new Set(directories)]);
    // --check-go-version=false: Debian's dlv 1.20 refuses a newer Go otherwise, and only warns with it.
    if (found !== undefined)
      return { command: found, args: ["dap", "--client-addr={address}", "--check-go-version=false"], detail: found };
    return { sought: "dlv", looked: [...new Set(directories)] };
  },
  launchArguments(request) {
    const builds = delve.builds(request);
    const test = request.mode === "test";
    return {
      mode: test ? "test" : builds ? "debug" : "exec",
      program: request.program,
      args: [...(test && request.test !== undefined ? ["-test.run", request.test] : []), ...request.args],
      cwd: request.cwd,
      stopOnEntry: request.stopOnEntry ?? false,
      ...(request.programEnv === undefined ? {} : { env: { ...request.programEnv } }),
      // Without it dlv writes ./__debug_bin into its cwd, shared between sessions and left behind on a kill.
      ...(builds || test ? { output: request.buildOutput } : {}),
      // dlv ≥ 1.21.1 then sends the program's output as events; 1.20 ignores it and writes to its own stdio.
      outputMode: "remote",
    };
  },
  accepts: (program, isDirectory) => isDirectory || extname(program) === ".go",
  builds: (request) => request.isDirectory || extname(request.program) === ".go",
  testMode: "dlv mode test on the package directory (program), -test.run <test>",
  exceptionFilters: ["unrecovered-panic (default)", "runtime-fatal-throw (default)"],
  features: "conditions, hit conditions, logpoints, function breakpoints (`main.add`), data breakpoints (op `watch`)",
};

const dart: AdapterDefinition = {
  id: "dart",
  markers: ["pubspec.yaml"],
  dapAdapterId: "dart",
  transport: "stdio",
  async locate(context) {
    const directories = pathDirectories(context.pathVariable);
    const found = await findExecutable(["dart"], directories);
    if (found !== undefined) return { command: found, args: ["debug_adapter"], detail: `${found} debug_adapter` };
    return { sought: "dart (the Dart SDK)", looked: directories };
  },
  launchArguments: (request) => ({
    program: request.program,
    args: [...request.args],
    cwd: request.cwd,
    console: "debugConsole",
    ...(request.programEnv === undefined ? {} : { env: { ...request.programEnv } }),
  }),
  accepts: (program) => extname(program) === ".dart",
  builds: () => false,
};

/** Every adapter, in the order `adapters` lists them. */
export const ADAPTERS: readonly AdapterDefinition[] = [debugpy, lldb, delve, dart];

/** Whether a locate result found the adapter. */
export function isLocated(result: LocatedAdapter | NotLocated): result is LocatedAdapter {
  return "command" in result;
}

/** The default {@link LocateContext} parts that come from this process. */
export function processLocateDefaults(): Pick<LocateContext, "pathVariable" | "home"> {
  return { pathVariable: process.env["PATH"], home: homedir() };
}
