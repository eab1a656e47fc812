import type { CellStatus } from "../kernel.js";
import type { CellToolFailure, CellToolValue, HostFrame, KernelFrame } from "./kernel-frames.js";
import type { WatchdogShared } from "./kernel-watchdog.js";

/**
 * The kernel's main thread: it runs the cells, so `process.chdir`, `process.exit` and the module
 * loader behave as in any Node program. Each cell goes through V8's REPL mode (`Runtime.evaluate`
 * with `replMode: true` on an in-process inspector session): top-level `await`, and top-level
 * `let`/`const`/`class` that a later cell may declare again, which no `vm` script allows.
 *
 * This function runs from its source text (see kernel-program.ts), so it may use no import and
 * nothing outside its own body; `watchdogSource` is the source of the watchdog thread.
 */
export function javascriptKernelMain(watchdogSource: string): void {
  const { Worker } = process.getBuiltinModule("node:worker_threads");
  const { Session } = process.getBuiltinModule("node:inspector");
  const { inspect } = process.getBuiltinModule("node:util");
  const { createRequire } = process.getBuiltinModule("node:module");
  const { Readable, Writable } = process.getBuiltinModule("node:stream");
  // Starts every frame: the record separator, then (from the host's first line) the channel secret, so
  // a line a cell writes to fd 1 itself is shown as text, never obeyed. Only this closure holds it.
  let marker = "\u001e";
  const echoLimit = 16_000;
  const inspectOptions = { depth: 4, maxArrayLength: 100, maxStringLength: 4_000, breakLength: 100 };

  const heartbeatMemory = new SharedArrayBuffer(8);
  // [0] running cell, [1] the cell an interrupt waits for (see WatchdogShared), [2] never set: send()'s sleep.
  const stateMemory = new SharedArrayBuffer(12);
  const heartbeat = new BigInt64Array(heartbeatMemory);
  const state = new Int32Array(stateMemory);

  const { writeSync } = process.getBuiltinModule("node:fs");
  // One system call per frame into a blocking pipe: a frame written by a cell spinning in a loop
  // still leaves, and stopping that loop (the watchdog's terminateExecution lands between two
  // JavaScript steps) cannot leave a stream's bookkeeping half-updated, as it could inside
  // process.stdout's own write path.
  function send(frame: KernelFrame): void {
    const bytes = Buffer.from(`${marker}${JSON.stringify(frame)}\n`, "utf8");
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(1, bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
        Atomics.wait(state, 2, 0, 1);
      }
    }
  }

  interface RunningCell {
    id: number;
    settled: boolean;
    bridge: Map<number, { resolve(value: CellToolValue): void; reject(error: Error): void }>;
  }
  let running: RunningCell | undefined;
  let beating: NodeJS.Timeout | undefined;
  let nextCallId = 1;

  function cellId(): number {
    return running?.settled === false ? running.id : 0;
  }

  function outputStream(name: "stdout" | "stderr"): InstanceType<typeof Writable> {
    const stream = new Writable();
    stream.write = ((chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      if (text !== "") send({ t: "stream", cell: cellId(), name, text });
      const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
      if (typeof done === "function") process.nextTick(done as () => void);
      return true;
    }) as typeof stream.write;
    return stream;
  }
  // Everything a cell prints becomes a frame, console.* included (it writes to these streams). The
  // real process.stdout is never created, so fd 1 stays the blocking pipe send() relies on.
  Object.defineProperty(process, "stdout", { value: outputStream("stdout"), configurable: true, writable: true });
  Object.defineProperty(process, "stderr", { value: outputStream("stderr"), configurable: true, writable: true });
  // The kernel's stdin carries the host's frames and belongs to the watchdog; a cell reading it
  // would steal them, so the cell's process.stdin is an empty stream.
  Object.defineProperty(process, "stdin", { value: Readable.from([]), configurable: true, writable: true });

  // Started before the rest of the set-up, so its thread boots meanwhile; after the stdio above,
  // because a worker pipes its own stdout into the process.stdout it finds.
  const watchdog = new Worker(watchdogSource, {
    eval: true,
    workerData: { heartbeat: heartbeatMemory, state: stateMemory } satisfies WatchdogShared,
  });
  watchdog.on("message", receive);
  // Without its watchdog the kernel cannot hear the host; better gone than deaf.
  watchdog.on("error", (error) => {
    reportThrown(error, cellId());
    process.exit(70);
  });

  function shown(value: unknown): string {
    try {
      return inspect(value, inspectOptions);
    } catch (error) {
      // A Proxy whose traps throw, for one.
      return `(a thrown ${typeof value} that cannot be shown: ${String((error as Error)?.message ?? error)})`;
    }
  }

  function describeThrown(value: unknown): { name: string; message: string; stack: string } {
    if (
      value instanceof Error ||
      (typeof value === "object" && value !== null && "stack" in value && typeof (value as Error).stack === "string")
    ) {
      const error = value as Error & { code?: unknown };
      // import() the host could not rewrite (see rewrite-dynamic-imports.ts) has no module referrer.
      const hint =
        error.code === "ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING"
          ? ' This import() could not be made to work here; use `await importModule("name")` or `require("name")` instead.'
          : "";
      return { name: String(error.name), message: String(error.message) + hint, stack: String(error.stack ?? "") };
    }
    // What Node's REPL prints for `throw 5`: the value itself is the message.
    const text = shown(value);
    return { name: "Uncaught", message: text, stack: `Uncaught ${text}` };
  }

  function reportThrown(value: unknown, cell: number): void {
    send({ t: "error", cell, ...describeThrown(value) });
  }

  // Neither a rejection nor a throw in a timer may end the kernel without a word: it is reported
  // to the running cell (or, with none running, to the next one through the host).
  process.on("uncaughtException", (error) => reportThrown(error, cellId()));
  process.on("unhandledRejection", (reason) => reportThrown(reason, cellId()));

  const session = new Session();
  session.connect();
  interface RemoteValue {
    type: string;
    value?: unknown;
    unserializableValue?: string;
    objectId?: string;
  }
  interface EvaluateResponse {
    result: RemoteValue;
    exceptionDetails?: { lineNumber: number; columnNumber: number; exception?: RemoteValue };
  }
  // Node's typings know neither replMode nor one signature for all methods; this is the one used here.
  const post = session.post.bind(session) as (
    method: string,
    params: object,
    callback?: (error: Error | null, response: EvaluateResponse) => void,
  ) => void;
  const valueSlot = Symbol.for("runbound.kernel.value");

  // A RemoteObject back to the value it stands for: objects through the inspector (the isolate is
  // this one), primitives from their serialised form.
  function remoteValue(remote: RemoteValue, group: string): unknown {
    if (remote.objectId !== undefined) {
      post("Runtime.callFunctionOn", {
        objectId: remote.objectId,
        functionDeclaration: `function () { "use strict"; globalThis[Symbol.for("runbound.kernel.value")] = this; }`,
        objectGroup: group,
        silent: true,
      });
      const value = (globalThis as Record<symbol, unknown>)[valueSlot];
      delete (globalThis as Record<symbol, unknown>)[valueSlot];
      return value;
    }
    const serialised = remote.unserializableValue;
    if (serialised === undefined) return remote.value;
    return serialised.endsWith("n") ? BigInt(serialised.slice(0, -1)) : Number(serialised);
  }

  function echo(value: unknown, cell: number): void {
    if (value === undefined) return;
    const text = inspect(value, inspectOptions);
    send({
      t: "result",
      cell,
      text:
        text.length <= echoLimit ? text : `${text.slice(0, echoLimit)}… (${text.length - echoLimit} more characters)`,
    });
  }

  function beat(): void {
    Atomics.store(heartbeat, 0, BigInt(Date.now()));
    if (running !== undefined && Atomics.load(state, 1) === running.id) takeInterrupt();
  }

  // Clears the interrupt flag if it is for `cell`: one set meanwhile for a later cell stays.
  function clearInterrupt(cell: number): void {
    Atomics.compareExchange(state, 1, cell, 0);
  }

  function settle(cell: RunningCell, status: CellStatus): void {
    if (cell.settled) return;
    cell.settled = true;
    clearInterval(beating);
    Atomics.store(state, 0, 0);
    clearInterrupt(cell.id);
    for (const call of cell.bridge.values())
      call.reject(
        Object.assign(new Error("The cell was interrupted while this tool call was pending."), {
          name: "InterruptedError",
        }),
      );
    cell.bridge.clear();
    send({ t: "done", cell: cell.id, status });
  }

  function takeInterrupt(): void {
    if (running === undefined) return;
    if (!running.settled) settle(running, "interrupted");
    clearInterrupt(running.id);
  }

  function execute(id: number, code: string): void {
    const cell: RunningCell = { id, settled: false, bridge: new Map() };
    running = cell;
    // An interrupt that came for an earlier cell after it had ended is void; one for this cell (sent
    // before it started) is kept and taken at the first heartbeat.
    const pending = Atomics.load(state, 1);
    if (pending !== id) clearInterrupt(pending);
    Atomics.store(state, 0, id);
    Atomics.store(heartbeat, 0, BigInt(Date.now()));
    beating = setInterval(beat, 10);
    const group = `cell-${id}`;
    // A rejection the cell left unhandled is reported once the microtasks after its last step have
    // run: the answer waits for that turn, so it belongs to this cell and not to the next one.
    const settleAfterTurn = (status: CellStatus): void => void setImmediate(() => settle(cell, status));
    post(
      "Runtime.evaluate",
      { expression: `${code}\n//# sourceURL=cell-${id}`, replMode: true, awaitPromise: true, objectGroup: group },
      (error, response) => {
        if (!cell.settled) {
          if (error !== null) {
            // The watchdog's terminateExecution surfaces here; anything else is the inspector failing.
            if (/terminated/i.test(error.message)) settle(cell, "interrupted");
            else {
              reportThrown(error, id);
              settleAfterTurn("error");
            }
          } else if (response.exceptionDetails !== undefined) {
            const details = response.exceptionDetails;
            const thrown = describeThrown(remoteValue(details.exception ?? { type: "undefined" }, group));
            // V8 puts no position in a syntax error's stack; the inspector gives it separately.
            if (!thrown.stack.includes(`cell-${id}:`)) {
              const frames = thrown.stack.indexOf("\n    at ");
              const where = `\n    at cell-${id}:${details.lineNumber + 1}:${details.columnNumber + 1}`;
              thrown.stack =
                frames < 0 ? thrown.stack + where : thrown.stack.slice(0, frames) + where + thrown.stack.slice(frames);
            }
            send({ t: "error", cell: id, ...thrown });
            settleAfterTurn("error");
          } else {
            echo(remoteValue(response.result, group), id);
            settleAfterTurn("ok");
          }
        }
        // Only objects get a remote handle; a primitive result leaves nothing to release.
        if (response?.result.objectId !== undefined || response?.exceptionDetails !== undefined)
          post("Runtime.releaseObjectGroup", { objectGroup: group });
      },
    );
  }

  function receive(frame: HostFrame | { t: "shutdown" }): void {
    if (frame.t === "channel") {
      // Through the watchdog, so it is running too: the kernel is ready.
      marker = `\u001e${frame.secret} `;
      send({ t: "ready", node: process.version });
    } else if (frame.t === "execute") execute(frame.cell, frame.code);
    else if (frame.t === "interrupt") {
      if (running?.id === frame.cell) takeInterrupt();
    } else if (frame.t === "tool_result") {
      const call = running?.bridge.get(frame.id);
      if (call === undefined) return;
      running!.bridge.delete(frame.id);
      if (frame.ok) call.resolve(frame.value);
      else call.reject(toolFailure(frame.error));
    } else process.exit(0);
  }

  function toolFailure(failure: CellToolFailure): Error {
    return Object.assign(new Error(failure.message), { name: "ToolError", code: failure.code });
  }

  const globals = globalThis as Record<string, unknown>;
  // Resolved from the workdir, as a script there would resolve them (importModule: kernel-program.ts).
  globals["require"] = createRequire(`${process.cwd()}/`);
  globals["tool"] = (name: unknown, input: unknown = {}): Promise<CellToolValue> => {
    const cell = running;
    if (typeof name !== "string")
      return Promise.reject(new TypeError(`tool() takes the tool's name as a string first, not ${kindOf(name)}.`));
    const nameProblem = surrogateProblem(name);
    if (nameProblem !== undefined)
      return Promise.reject(
        new TypeError(`tool() takes the tool's name as a well-formed string; it is ${nameProblem}.`),
      );
    if (cell === undefined || cell.settled)
      return Promise.reject(
        new Error(`tool("${name}") was called after its cell had ended; call tools from within a running cell.`),
      );
    let plain: unknown;
    try {
      // Checked before anything waits for an answer: JSON.stringify would turn NaN into null, call a
      // Date's toJSON, and pass a lone surrogate on to the tool.
      plain = toolInput(name, input);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const id = nextCallId++;
    return new Promise<CellToolValue>((resolve, reject) => {
      cell.bridge.set(id, { resolve, reject });
      send({ t: "tool", cell: cell.id, id, name, input: plain });
    });
  };

  function kindOf(value: unknown): string {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    return typeof value === "object" ? "an object" : `a ${typeof value}`;
  }

  function surrogateProblem(text: string): string | undefined {
    if ((text as string & { isWellFormed(): boolean }).isWellFormed()) return undefined;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 0xd800 || code > 0xdfff) continue;
      const next = text.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
      return `a string with a lone surrogate (U+${code.toString(16).toUpperCase()} at index ${index}), which is not valid Unicode; remove it or replace it, e.g. \`text.toWellFormed()\``;
    }
    return undefined;
  }

  const maxInputDepth = 100;

  // `input` as plain JSON data (a copy, so no getter or toJSON runs twice), or the TypeError that
  // names the offending place and what to pass instead.
  function toolInput(name: string, input: unknown): unknown {
    const failure = (where: string, problem: string): TypeError =>
      new TypeError(`tool("${name}") cannot send \`${where}\`: ${problem}.`);
    const open = new Set<object>();
    const placeOf = (where: string, key: string): string =>
      /^[A-Za-z_$][\w$]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
    const plainJson = (value: unknown, where: string, depth: number): unknown => {
      if (value === null || typeof value === "boolean") return value;
      if (typeof value === "string") {
        const problem = surrogateProblem(value);
        if (problem !== undefined) throw failure(where, `it is ${problem}`);
        return value;
      }
      if (typeof value === "number") {
        if (!Number.isFinite(value))
          throw failure(
            where,
            `it is ${String(value)}, which JSON cannot carry; pass a finite number, or null for no value`,
          );
        return value;
      }
      if (typeof value === "bigint")
        throw failure(where, "it is a bigint; pass Number(value) when it fits, or String(value)");
      if (value === undefined) throw failure(where, "it is undefined; JSON arrays have no undefined: use null");
      if (typeof value !== "object") throw failure(where, `it is a ${typeof value}, which JSON cannot carry`);
      if (open.has(value)) throw failure(where, "it contains itself; pass a structure without cycles");
      if (depth >= maxInputDepth) throw failure(where, `it nests deeper than ${maxInputDepth} levels; flatten it`);
      const isArray = Array.isArray(value);
      const prototype: unknown = Object.getPrototypeOf(value);
      if (!isArray && prototype !== Object.prototype && prototype !== null) {
        const constructor = (prototype as { constructor?: { name?: unknown } }).constructor;
        const shown =
          typeof constructor?.name === "string" && constructor.name !== ""
            ? constructor.name
            : "object with a custom prototype";
        throw failure(
          where,
          `it is a ${shown}, which JSON cannot carry; pass plain objects, arrays, strings, finite numbers, booleans or null (convert it first, e.g. \`date.toISOString()\`, \`[...set]\`)`,
        );
      }
      open.add(value);
      try {
        if (isArray)
          return Array.from({ length: (value as unknown[]).length }, (_, index) =>
            plainJson((value as unknown[])[index], `${where}[${index}]`, depth + 1),
          );
        // No prototype, so a key named __proto__ is data, as in JSON.
        const plain = Object.create(null) as Record<string, unknown>;
        for (const key of Object.keys(value)) {
          const place = placeOf(where, key);
          const keyProblem = surrogateProblem(key);
          if (keyProblem !== undefined) throw failure(place, `its key is ${keyProblem}`);
          const item = (value as Record<string, unknown>)[key];
          // As in JSON.stringify: a property that is undefined is left out.
          if (item !== undefined) plain[key] = plainJson(item, place, depth + 1);
        }
        return plain;
      } finally {
        open.delete(value);
      }
    };
    if (input === null || typeof input !== "object" || Array.isArray(input))
      throw new TypeError(`tool("${name}") takes its input as a plain object, not ${kindOf(input)}.`);
    return plainJson(input, "input", 0);
  }
}
