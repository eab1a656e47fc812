import { ConversationId, defineTool, ToolError, Workdir } from "@runbound/tool-kit";
import * as v from "valibot";
import { requestErrorAsToolError } from "./adapter-request-error.js";
import { debugOutputSchema } from "./debug-output.js";
import { DebugSupervisor } from "./debug-supervisor.js";
import { executionOp, type ExecutionOp } from "./execution-ops.js";
import {
  evaluateOp,
  LIMITS,
  localsOp,
  outputOp,
  scopesOp,
  stackOp,
  threadsOp,
  variablesOfExpression,
  variablesOp,
} from "./inspection-ops.js";
import { breakpointsOp, exceptionsOp } from "./breakpoint-ops.js";
import { adaptersOp, startOp, statusOp, terminateOp } from "./session-ops.js";
import { assertTextFields, MAX_TEXT_LENGTH } from "./text-field-limits.js";
import { traceOp } from "./trace-op.js";
import { WATCH_ACCESS, watchOp } from "./watch-op.js";
import { programEnvironment } from "./program-environment.js";

/** Every op of the debug tool. */
export const DEBUG_OPS = [
  "adapters",
  "status",
  "breakpoints",
  "exceptions",
  "launch",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "threads",
  "stack",
  "scopes",
  "variables",
  "locals",
  "watch",
  "trace",
  "evaluate",
  "output",
  "terminate",
] as const;

const ADAPTER_IDS = ["debugpy", "lldb", "delve", "dart"] as const;

function required<T>(value: T | undefined, field: string, op: string, example: string): T {
  if (value === undefined)
    throw new ToolError({ code: "invalid_input", message: `Op \`${op}\` needs \`${field}\`, e.g. ${example}.` });
  return value;
}

/** The debug tool: one session per conversation over a real debug adapter. */
export const debugTool = defineTool({
  name: "debug",
  title: "Debugger",
  tier: "exec",
  description: `Drive a real debugger (debugpy for Python, lldb for C/C++/Rust executables, delve for Go, dart) over DAP; one session per conversation, ended after 30 minutes. Flow: breakpoints (file with lines or points with condition/hit_condition/log_message, or functions; allowed before launch), exceptions (filters) → launch (program or module, args, cwd, env; mode test runs a test) or attach (port) → a stop answers with the source around the line, the top frame's locals and the output since the last answer; then variables (reference, or expression path) / locals (frame_id) / stack / evaluate (expression) / watch (expression: a data breakpoint, dlv) → step_over/step_in/step_out/continue, or trace (debugpy: the calls into your code up to the next stop or the end) → terminate. Execution ops wait for the program to stop (within a budget, then answer "still running"; use pause). Stops report the reason, file:line with the source line, and the exception. Caps: stack ${LIMITS.frames} frames, variables ${LIMITS.children} children and values ${LIMITS.valueCharacters} characters, output the newest ${LIMITS.output / 1024} KB. An adapter is available only with its project marker (pyproject.toml/setup.py/requirements.txt, Cargo.toml/CMakeLists.txt, go.mod, pubspec.yaml) and its program installed: op adapters says which.`,
  input: v.strictObject({
    op: v.pipe(v.picklist(DEBUG_OPS), v.description(`What to do: ${DEBUG_OPS.join(", ")}.`)),
    program: v.optional(
      v.pipe(
        v.string(),
        v.description(
          `launch: the program, relative to the working directory: a .py file, a built executable (lldb), a .go file or Go package directory, a .dart file. At most ${MAX_TEXT_LENGTH} characters.`,
        ),
      ),
    ),
    args: v.optional(
      v.pipe(
        v.array(v.string()),
        v.maxLength(256),
        v.description(`launch: the program's arguments, each at most ${MAX_TEXT_LENGTH} characters.`),
      ),
    ),
    module: v.optional(
      v.pipe(
        v.string(),
        v.description(
          'launch (debugpy): run `python -m MODULE args` instead of a program, e.g. `pytest` with args `["-k", "test_add"]`.',
        ),
      ),
    ),
    cwd: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "launch: the program's working directory, relative to the working directory; default the project root (where its marker is).",
        ),
      ),
    ),
    env: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            name: v.pipe(v.string(), v.description("The variable's name, e.g. `DEBUG`.")),
            value: v.pipe(v.string(), v.description("Its value.")),
          }),
        ),
        v.description(
          'launch: variables added to the program\'s environment, e.g. `[{"name": "DEBUG", "value": "1"}]`.',
        ),
      ),
    ),
    stop_on_entry: v.optional(v.pipe(v.boolean(), v.description("launch: stop at the program's first line."))),
    just_my_code: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "launch (debugpy): false to stop and step in library code too (site-packages, the standard library); default true.",
        ),
      ),
    ),
    mode: v.optional(
      v.pipe(
        v.picklist(["test"]),
        v.description(
          "launch: `test` runs the project's tests under the debugger: dlv test on a package directory (program), `python -m pytest [program]`, `cargo test` under lldb (program: the crate directory or a test source file).",
        ),
      ),
    ),
    test: v.optional(
      v.pipe(
        v.string(),
        v.description(
          "launch with mode test: which tests (dlv `-test.run` regexp, pytest `-k` expression, cargo test filter).",
        ),
      ),
    ),
    adapter: v.optional(
      v.pipe(
        v.picklist(ADAPTER_IDS),
        v.description("launch/attach: the adapter; default chosen from the program (launch) or debugpy (attach)."),
      ),
    ),
    port: v.optional(
      v.pipe(
        v.number(),
        v.description(
          "attach: the loopback port a debuggee listens on (`python -m debugpy --listen 127.0.0.1:PORT app.py`; lldb: a gdb-remote stub).",
        ),
      ),
    ),
    file: v.optional(
      v.pipe(
        v.string(),
        v.description(
          `breakpoints: the source file, relative to the working directory. At most ${MAX_TEXT_LENGTH} characters.`,
        ),
      ),
    ),
    lines: v.optional(
      v.pipe(
        v.array(v.number()),
        v.maxLength(200),
        v.description("breakpoints: 1-based lines; replaces the file's breakpoints, [] clears them."),
      ),
    ),
    points: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            line: v.pipe(v.number(), v.description("1-based line.")),
            condition: v.optional(
              v.pipe(
                v.string(),
                v.description("Stop only when this expression (the program's language) is true, e.g. `i == 7`."),
              ),
            ),
            hit_condition: v.optional(
              v.pipe(
                v.string(),
                v.description("Stop only on these hits, e.g. `7` (the 7th) or `>= 7`; debugpy also `%2`."),
              ),
            ),
            log_message: v.optional(
              v.pipe(
                v.string(),
                v.description(
                  "A logpoint: log this text instead of stopping; `{expression}` is replaced by its value. The lines go to op `output` and into the next answer.",
                ),
              ),
            ),
          }),
        ),
        v.maxLength(200),
        v.description(
          "breakpoints: instead of `lines`, lines with a condition, hit_condition or log_message each; replaces the file's breakpoints.",
        ),
      ),
    ),
    functions: v.optional(
      v.pipe(
        v.array(v.string()),
        v.maxLength(100),
        v.description(
          "breakpoints: function breakpoints by name (`main.add` for Go, `add` for C/Python, `module::function` for Rust); replaces the previous list, [] clears them. `file` is not needed.",
        ),
      ),
    ),
    filters: v.optional(
      v.pipe(
        v.array(v.string()),
        v.maxLength(20),
        v.description(
          "exceptions: the exception filters to stop on, as op `adapters` lists them (debugpy `raised`/`uncaught`/`userUnhandled`, lldb `cpp_throw`/`cpp_catch`, dlv `unrecovered-panic`/`runtime-fatal-throw`); [] stops on none.",
        ),
      ),
    ),
    thread_id: v.optional(
      v.pipe(v.number(), v.description("continue/pause/step_*/stack: the thread; default the one that stopped last.")),
    ),
    frame_id: v.optional(
      v.pipe(
        v.number(),
        v.description(
          "scopes (required), locals and evaluate (default: the top frame): a frame id from stack or a stop.",
        ),
      ),
    ),
    reference: v.optional(
      v.pipe(
        v.number(),
        v.description(
          "variables: a reference from a stop's locals, scopes or a variable; or give `expression` (a path such as `config.Tags`, `resp.headers`); with neither, the frame's locals (as op locals).",
        ),
      ),
    ),
    access: v.optional(
      v.pipe(
        v.picklist(WATCH_ACCESS),
        v.description("watch: stop when the variable is written (default), read, or either."),
      ),
    ),
    expression: v.optional(
      v.pipe(
        v.string(),
        v.description(
          `evaluate: an expression in the program's language; variables: an expression path whose children to list; watch: the variable to watch (a data breakpoint: delve only), none clears. At most ${MAX_TEXT_LENGTH} characters.`,
        ),
      ),
    ),
  }),
  requires: [DebugSupervisor, Workdir, ConversationId],
  parallelSafe: false,
  output: debugOutputSchema,
  // A cold `go build` inside dlv's launch can take minutes; the other ops answer within their budgets.
  timeoutMs: 240_000,
  hints: { openWorld: true },
  run: async (input, context) => {
    assertTextFields(input);
    const supervisor = context.resource(DebugSupervisor);
    const workdir = context.resource(Workdir);
    const conversationId = context.resource(ConversationId);
    const budget = supervisor.settings.stopBudgetMs;
    try {
      switch (input.op) {
        case "adapters":
          return await adaptersOp(supervisor, workdir);
        case "status":
          return statusOp(supervisor, conversationId, workdir);
        case "breakpoints":
          return await breakpointsOp(supervisor, conversationId, workdir, input);
        case "exceptions":
          return await exceptionsOp(
            supervisor,
            conversationId,
            required(input.filters, "filters", input.op, '`"filters": ["raised"]`'),
          );
        case "launch":
          return await startOp(
            supervisor,
            conversationId,
            workdir,
            {
              program: input.program,
              args: input.args ?? [],
              cwd: input.cwd,
              options: {
                module: input.module,
                programEnv: programEnvironment(input.env),
                stopOnEntry: input.stop_on_entry,
                justMyCode: input.just_my_code,
                mode: input.mode,
                test: input.test,
              },
              ...(input.adapter === undefined ? {} : { adapter: input.adapter }),
            },
            (message) => context.progress({ message }),
          );
        case "attach":
          return await startOp(
            supervisor,
            conversationId,
            workdir,
            {
              port: required(input.port, "port", input.op, '`"port": 5678`'),
              ...(input.adapter === undefined ? {} : { adapter: input.adapter }),
            },
            (message) => context.progress({ message }),
          );
        case "terminate":
          return await terminateOp(supervisor, conversationId);
        case "output":
          return outputOp(supervisor.session(conversationId));
        case "threads":
          return await threadsOp(supervisor.session(conversationId));
        case "stack":
          return await stackOp(supervisor.session(conversationId), input.thread_id, workdir);
        case "scopes":
          return await scopesOp(
            supervisor.session(conversationId),
            required(input.frame_id, "frame_id", input.op, '`"frame_id": 1` (from op `stack`)'),
          );
        case "variables":
          // Without a reference: the frame's locals (issue 26: no stack → scopes → variables round trips).
          if (input.reference !== undefined)
            return await variablesOp(supervisor.session(conversationId), input.reference);
          if (input.expression !== undefined)
            return await variablesOfExpression(supervisor.session(conversationId), input.expression, input.frame_id);
          return await localsOp(supervisor.session(conversationId), input.frame_id);
        case "locals":
          return await localsOp(supervisor.session(conversationId), input.frame_id);
        case "trace":
          return await traceOp(supervisor.session(conversationId), workdir, budget, context.signal);
        case "watch":
          return await watchOp(supervisor.session(conversationId), input.expression, input.frame_id, input.access);
        case "evaluate":
          return await evaluateOp(
            supervisor.session(conversationId),
            required(input.expression, "expression", input.op, '`"expression": "len(items)"`'),
            input.frame_id,
          );
        default:
          return await executionOp(
            supervisor.session(conversationId),
            input.op satisfies ExecutionOp,
            input.thread_id,
            workdir,
            budget,
            context.signal,
          );
      }
    } catch (error) {
      // A refusal of the adapter (a bad expression, a stale reference) is the caller's to fix, not a bug.
      throw requestErrorAsToolError(error);
    }
  },
});
