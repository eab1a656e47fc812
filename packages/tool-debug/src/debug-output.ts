import * as v from "valibot";

const text = (description: string) => v.pipe(v.string(), v.description(description));
const number = (description: string) => v.pipe(v.number(), v.description(description));
const flag = (description: string) => v.pipe(v.boolean(), v.description(description));

/** A local variable, or a field of the struct a local pointer points to. */
const localEntries = {
  name: text("The variable's name (cut at 80 characters)."),
  value: text("Its value as the adapter shows it, cut (see `value_cut`)."),
  type: v.optional(text("Its type, when the adapter gives one.")),
  reference: number("A reference for op `variables` (0: nothing below)."),
  value_cut: v.optional(number("Characters cut from the value.")),
};
const local = v.object({
  ...localEntries,
  fields: v.optional(
    v.pipe(
      v.array(v.object(localEntries)),
      v.description("The fields of the struct a pointer points to (Go `*T`, C `struct t *`), one level."),
    ),
  ),
  fields_omitted: v.optional(number("Fields of the pointee not shown.")),
});

/** Where the program stopped: `launch`, `attach`, the execution ops and `trace` answer it. */
const stop = v.object({
  reason: text("Why it stopped: `breakpoint`, `step`, `exception`, `pause`, `entry`, `data breakpoint`, …"),
  thread_id: v.optional(number("The thread that stopped.")),
  description: v.optional(text("The adapter's description of the stop.")),
  function: v.optional(text("The top frame's function, readable.")),
  file: v.optional(text("The top frame's file, relative to the workdir (absolute outside it).")),
  line: v.optional(number("The top frame's 1-based line.")),
  source_line: v.optional(text("The source of that line.")),
  source_context: v.optional(
    v.pipe(
      v.array(v.object({ line: number("1-based line."), text: text("Its source.") })),
      v.description("The line and two lines either side."),
    ),
  ),
  frame_id: v.optional(number("The top frame's id, for scopes, locals and evaluate.")),
  locals: v.optional(
    v.pipe(
      v.object({
        scopes: v.pipe(v.array(v.string()), v.description("The scopes read, e.g. `Locals`.")),
        locals: v.pipe(v.array(local), v.description("The first 20 locals.")),
        total: number("Every local in those scopes."),
        omitted: number("Locals not shown."),
      }),
      v.description("The top frame's locals, when it has any."),
    ),
  ),
  exception: v.optional(
    v.pipe(
      v.object({
        id: text("The exception's id."),
        description: v.optional(text("Its description (cut at 400 characters).")),
        type: v.optional(text("Its type name.")),
        message: v.optional(text("Its message (cut at 400 characters).")),
      }),
      v.description("The exception, when it stopped on one."),
    ),
  ),
});

const breakpointState = {
  queued: v.optional(v.pipe(v.literal(true), v.description("Not sent yet: it is sent at launch."))),
  verified: v.optional(flag("Whether the adapter verified it.")),
  message: v.optional(text("The adapter's message (why it is not verified).")),
};

/**
 * `structured` of debug: one object for every op (an MCP output schema cannot be a union at its
 * root), each field present for the ops its description names. `launch`, `attach`, the execution ops
 * and `trace` answer how the program ended up (`state` with `stop`, `exit_code` or `new_output`).
 */
export const debugOutputSchema = v.object({
  state: v.optional(
    v.pipe(
      v.picklist(["stopped", "running", "exited", "crashed", "ended", "none", "expired"]),
      v.description(
        "launch / attach / continue / pause / step_* / trace: `stopped`, `running` (still, after the stop budget) or `exited`. status: the session's state, `none` without a session, `expired` after its time limit.",
      ),
    ),
  ),
  stop: v.optional(v.pipe(stop, v.description("With `state` `stopped`: where and why."))),
  exit_code: v.optional(number("The program's exit code, once it exited and the adapter said.")),
  new_output: v.optional(text("Output written since the previous answer (the newest 2 KB).")),
  adapter: v.optional(text("launch / attach / status: the adapter, e.g. `debugpy`.")),
  target: v.optional(text("launch / attach: the program or port debugged.")),
  age_ms: v.optional(number("status: milliseconds since the session started.")),
  adapters: v.optional(
    v.pipe(
      v.array(
        v.object({
          id: text("The adapter's id: `debugpy`, `lldb`, `delve`, `dart`."),
          available: flag("Whether it can run here."),
          reason: text("Why (not)."),
          command: v.optional(text("The program found for it.")),
          exception_filters: v.optional(
            v.pipe(v.array(v.string()), v.description("The exception filters it offers, for op `exceptions`.")),
          ),
        }),
      ),
      v.description("adapters: each adapter and whether it can run here."),
    ),
  ),
  file: v.optional(text("breakpoints with `file`: the file, relative to the workdir.")),
  breakpoints: v.optional(
    v.pipe(
      v.array(
        v.object({
          requested: number("The line asked for."),
          condition: v.optional(text("Stop only when this is true.")),
          hit_condition: v.optional(text("Stop only on these hits.")),
          log_message: v.optional(text("A logpoint's message.")),
          bound: v.optional(number("The line the adapter bound it to.")),
          ...breakpointState,
        }),
      ),
      v.description("breakpoints with `file`: the file's breakpoints now."),
    ),
  ),
  functions: v.optional(
    v.pipe(
      v.array(
        v.object({
          name: text("The function asked for."),
          ...breakpointState,
          file: v.optional(text("Where the adapter bound it, relative to the workdir.")),
          line: v.optional(number("Its line there.")),
        }),
      ),
      v.description("breakpoints with `functions`: the function breakpoints now."),
    ),
  ),
  queued: v.optional(
    v.pipe(v.array(v.string()), v.description("exceptions before a launch: the filters sent at launch.")),
  ),
  filters: v.optional(
    v.pipe(
      v.array(
        v.object({
          filter: text("The filter sent."),
          verified: v.optional(flag("The adapter's verdict, when it gave one per filter.")),
          message: v.optional(text("The adapter's message.")),
        }),
      ),
      v.description("exceptions in a session: the filters set."),
    ),
  ),
  refused: v.optional(
    v.pipe(v.array(v.string()), v.description("exceptions: filters the adapter does not offer, not sent.")),
  ),
  offered: v.optional(
    v.pipe(
      v.array(
        v.object({
          filter: text("The filter's id."),
          label: text("Its label."),
          default: v.optional(flag("Whether the adapter enables it by default.")),
        }),
      ),
      v.description("exceptions in a session: the filters the adapter offers."),
    ),
  ),
  total: v.optional(
    number("threads, stack, variables, locals: how many there are in all; output: characters kept by the session."),
  ),
  threads: v.optional(
    v.pipe(
      v.array(v.object({ id: number("The thread's id."), name: text("Its name.") })),
      v.description("threads: the threads shown."),
    ),
  ),
  thread_id: v.optional(number("stack: the thread.")),
  frames: v.optional(
    v.pipe(
      v.array(
        v.object({
          id: number("The frame's id, for scopes, locals and evaluate."),
          name: text("Its function, readable."),
          file: v.optional(text("Its source file's absolute path, when it has one.")),
          line: number("Its 1-based line."),
          library: v.optional(
            text("When the text collapsed it into a run of library frames: the library (`std`, `runtime`, …)."),
          ),
        }),
      ),
      v.description("stack: the frames shown, the top first."),
    ),
  ),
  frame_id: v.optional(number("scopes, locals, evaluate: the frame.")),
  scopes: v.optional(
    v.pipe(
      v.union([
        v.array(
          v.object({
            name: text("The scope's name."),
            reference: number("Its reference, for op `variables`."),
            expensive: flag("Whether the adapter says it is expensive to read."),
          }),
        ),
        v.array(v.string()),
      ]),
      v.description("scopes: the frame's scopes. locals: the names of the scopes read."),
    ),
  ),
  locals: v.optional(v.pipe(v.array(local), v.description("locals: the frame's locals shown."))),
  omitted: v.optional(number("variables, locals: how many are not shown.")),
  reference: v.optional(
    number(
      "variables: the reference listed. evaluate, variables of an expression: the value's reference (0: no children).",
    ),
  ),
  variables: v.optional(
    v.pipe(
      v.array(
        v.object({
          name: text("The child's name."),
          value: text("Its value, cut at 400 characters (see `value_cut`)."),
          value_cut: v.optional(number("Characters cut from the value.")),
          type: v.optional(text("Its type.")),
          reference: number("Its reference, for op `variables` (0: nothing below)."),
        }),
      ),
      v.description("variables: the children shown."),
    ),
  ),
  expression: v.optional(text("evaluate, variables of an expression: the expression.")),
  result: v.optional(text("evaluate, variables of an expression without children: its value, cut.")),
  type: v.optional(text("evaluate, variables of an expression without children: its type, when given.")),
  watches: v.optional(
    v.pipe(
      v.array(
        v.object({
          description: text("What is watched."),
          access: v.pipe(v.picklist(["write", "read", "readWrite"]), v.description("Which access stops.")),
          verified: flag("Whether the adapter verified it."),
          message: v.optional(text("The adapter's message.")),
        }),
      ),
      v.description("watch: the data breakpoints now ([] once cleared)."),
    ),
  ),
  calls: v.optional(number("trace: calls into the workdir's code recorded.")),
  omitted_calls: v.optional(number("trace: calls not shown individually.")),
  trace: v.optional(
    v.pipe(v.array(v.string()), v.description("trace: the calls as indented lines, repeats collapsed.")),
  ),
  text: v.optional(text("output: the newest program output shown.")),
  not_shown: v.optional(number("output: earlier characters kept but not shown.")),
  dropped: v.optional(number("output: characters dropped from the start of the session's buffer.")),
  terminated: v.optional(flag("terminate: whether there was a session to end.")),
});
