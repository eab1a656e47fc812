import { createInterface } from "node:readline";
import {
  hostPlacement,
  listProcessGroup,
  spawnOwnedProcess,
  type OwnedProcess,
  type Placement,
} from "@runbound/runtime-kit";
import { abortedError, ToolError } from "@runbound/tool-kit";
import { cellToolAnswer } from "./javascript/cell-tool-answer.js";
import {
  encodeHostFrame,
  frameMarker,
  parseKernelLine,
  type HostFrame,
  type KernelFrame,
} from "./javascript/kernel-frames.js";
import { javascriptKernelProgram } from "./javascript/kernel-program.js";
import { rewriteDynamicImports } from "./javascript/rewrite-dynamic-imports.js";
import { stripKernelFrames } from "./javascript/strip-kernel-frames.js";
import { createChannelSecret } from "./json-lines-channel.js";
import type { CellOutput, CellRequest, CellStatus, Kernel, KernelExit, KernelStartOptions } from "./kernel.js";

/** Settings of the JavaScript kernel beyond what every kernel gets. */
export interface JavaScriptKernelOptions extends KernelStartOptions {
  /** Milliseconds to wait for the kernel to answer that it is ready; default 20 000. */
  startTimeoutMs?: number;
  /** Where the kernel runs; default the host. */
  placement?: Placement;
}

// An interrupt not taken by then finds the cell blocked in a synchronous call, most likely waiting
// for a program it started (execSync): those programs get SIGINT, as Ctrl-C in a terminal would.
// Repeated at that pace until the cell stops: on a loaded machine the program may not exist yet at the
// first try (the cell printed, then started it), and a single try then left the cell blocked.
const programsInterruptAfterMs = 100;

/**
 * The signal for the programs a cell waits on, by how long the interrupt has lasted: SIGINT first (a
 * program may clean up), then SIGTERM, then SIGKILL — a program that ignores SIGINT (`trap '' INT`,
 * a server that catches it) must not keep the cell blocked until the kernel is given up.
 */
function programSignalAfter(elapsedMs: number): NodeJS.Signals {
  if (elapsedMs < 1_000) return "SIGINT";
  return elapsedMs < 2_000 ? "SIGTERM" : "SIGKILL";
}

// Output left behind by an earlier cell (a timer, a rejected promise) while no cell runs is kept for
// the next cell, at most this many pieces.
const backgroundLimit = 50;

// Node prints this when a process exits with an inspector session attached, as the watchdog's
// always is: it is the kernel's noise, not a word from the cell.
const inspectorFarewell = "Waiting for the debugger to disconnect...";

function how(exit: KernelExit): string {
  return exit.signal === null ? `exit code \`${exit.code}\`` : `signal \`${exit.signal}\``;
}

function lastWords(exit: KernelExit): string {
  return exit.stderrTail === "" ? "" : ` Its last stderr lines: ${exit.stderrTail}`;
}

interface RunningCell {
  id: number;
  request: CellRequest;
  settle(status: CellStatus): void;
  fail(error: ToolError): void;
}

// Which earlier cell left the timer or promise behind is not known (only async hooks could tell, and
// they abort Node when the watchdog stops a cell after an await); the last cell that ran is named.
function lateLabel(lastCell: number): string {
  return `[after cell-${lastCell} had answered, a timer or promise left running by it or an earlier cell produced this:]\n`;
}

const lateEnd = "[end of the earlier cell's output]\n";

/**
 * Start a JavaScript kernel: a child Node process (the same `node` as the host, in its own process
 * group) whose main thread keeps one global scope across cells, run through V8's REPL mode.
 *
 * - Top-level `await`; top-level `let`, `const` and `class` may be declared again by a later cell.
 * - The last expression's value is echoed with `util.inspect` (bounded); `undefined` is not echoed.
 * - `console.*` and `process.stdout/stderr.write` stream as the cell's output while it runs.
 * - `await tool(name, input)` calls the run's tool over the kernel's stdin/stdout and resolves to
 *   `{ text, images, structured? }`; a tool that answers `isError`, or a call the run refuses, rejects
 *   with an Error named `ToolError` (with the refusal's `code`).
 * - The cwd starts at the workdir and `process.chdir` works; `require` and `import()` resolve from the
 *   workdir (`import()` is rewritten to the kernel's `importModule()`: REPL-mode code has no module
 *   referrer, so Node 20 refuses its own).
 * - A runaway synchronous loop and a never-settling `await` are both interrupted with the kernel's
 *   variables kept; a throw in a timer or an unhandled rejection is reported as an error output: in
 *   the cell's own answer when it surfaces by the end of the cell's last turn of the event loop (the
 *   answer waits for that turn); later, while no cell runs, at the start of the next answer under a
 *   label that says it came after the last cell answered; while another cell runs, as that cell's.
 * - Frames carry a per-kernel secret, so a cell writing to fd 1 itself cannot end its cell early or
 *   fake a frame (see kernel-frames.ts); a cell that reads the kernel's memory through the inspector
 *   could find it, as it could do anything the user can.
 *
 * Not isolated: a cell is ordinary Node code with the host user's rights (files, programs, network)
 * and the host's environment except `NODE_OPTIONS`. Put the kernel in a sandbox when that matters.
 *
 * @throws ToolError `unavailable` when the process does not start, `timeout`/`cancelled` when the
 * start is aborted or too slow; nothing is left running.
 */
export async function startJavaScriptKernel(options: JavaScriptKernelOptions): Promise<Kernel> {
  const aborted = (): ToolError =>
    abortedError(options.signal, {
      timeout: "Starting the JavaScript kernel ran out of time.",
      cancelled: "Starting the JavaScript kernel was cancelled.",
    });
  if (options.signal.aborted) throw aborted();
  options.progress?.("starting the JavaScript kernel");
  // The host's NODE_OPTIONS (a test runner's loader, an --inspect) would run inside the kernel too.
  const env = { ...process.env };
  delete env["NODE_OPTIONS"];
  const placement = options.placement ?? hostPlacement;
  // The kernel's program is all in its --eval argument: the sandbox needs only Node itself.
  const child = await spawnOwnedProcess({
    command: process.execPath,
    args: ["--eval", javascriptKernelProgram()],
    cwd: options.workdir,
    env,
    placement,
  });
  const kernel = new JavaScriptKernel(child, placement.kind === "sandbox");
  try {
    await kernel.ready(options.signal, options.startTimeoutMs ?? 20_000, aborted);
  } catch (error) {
    await kernel.dispose();
    throw error;
  }
  return kernel;
}

class JavaScriptKernel implements Kernel {
  readonly language = "javascript" as const;
  readonly kind = "javascript" as const;
  label: string;
  readonly exited: Promise<KernelExit>;
  private readonly frames = new EventTarget();
  private running: RunningCell | undefined;
  private background: CellOutput[] = [];
  private backgroundDropped = 0;
  private cells = 0;
  private disposing = false;
  private readonly marker: string;

  constructor(
    private readonly child: OwnedProcess,
    sandboxed: boolean,
  ) {
    this.label = `Node.js ${process.version} (a child process${sandboxed ? ", in a sandbox" : ""})`;
    const secret = createChannelSecret();
    this.marker = frameMarker(secret);
    this.send({ t: "channel", secret });
    this.exited = child.exit.then((exit) => ({
      code: exit.code,
      signal: exit.signal,
      stderrTail: child
        .stderrTail()
        .filter((line) => line !== inspectorFarewell)
        .join("\n"),
    }));
    void this.exited.then((exit) => this.running?.fail(this.exitError(exit)));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => this.receive(line));
  }

  get pid(): number {
    return this.child.pid;
  }

  private exitError(exit: KernelExit): ToolError {
    if (this.disposing)
      return new ToolError({
        code: "cancelled",
        message: "The JavaScript kernel was disposed while the cell ran; its state is gone.",
      });
    return new ToolError({
      code: "unavailable",
      message: `The JavaScript kernel ended with ${how(exit)} while the cell ran (a cell that calls \`process.exit()\` ends it); its variables are lost: start a fresh kernel (eval's \`reset\`) and run the cell again.${lastWords(exit)}`,
    });
  }

  private send(frame: HostFrame): void {
    this.child.stdin.write(encodeHostFrame(frame));
  }

  private output(cell: number, output: CellOutput): void {
    const running = this.running;
    if (running !== undefined && (cell === running.id || cell === 0)) {
      running.request.onOutput(output);
      return;
    }
    // Came while no cell ran (or names a cell that has ended): kept for the next answer, labelled.
    if (this.background.length < backgroundLimit) this.background.push(output);
    else this.backgroundDropped += 1;
  }

  private receive(line: string): void {
    let parsed: ReturnType<typeof parseKernelLine>;
    try {
      parsed = parseKernelLine(line, this.marker);
    } catch {
      // A frame cut by a cell that was stopped in the middle of printing it: shown, not trusted.
      parsed = { text: line, frame: undefined };
    }
    const { text, frame } = parsed;
    // Text without the secret: a program's output, or a cell writing to fd 1 itself. Cut off by a frame,
    // it had no line end of its own.
    if (frame === undefined || text !== "")
      this.output(this.running?.id ?? 0, {
        type: "stream",
        name: "stdout",
        text: frame === undefined ? `${text}\n` : text,
      });
    if (frame === undefined) return;
    switch (frame.t) {
      case "stream":
        this.output(frame.cell, { type: "stream", name: frame.name, text: frame.text });
        break;
      case "result":
        this.output(frame.cell, { type: "result", text: frame.text });
        break;
      case "error":
        this.output(frame.cell, {
          type: "error",
          name: frame.name,
          message: frame.message,
          traceback: stripKernelFrames(frame.stack),
        });
        break;
      case "tool":
        this.callTool(frame);
        break;
      case "done":
        if (this.running?.id === frame.cell) {
          const running = this.running;
          this.running = undefined;
          running.settle(frame.status);
        }
        break;
    }
    this.frames.dispatchEvent(new Event(frame.t));
  }

  private callTool(frame: Extract<KernelFrame, { t: "tool" }>): void {
    const running = this.running;
    if (running?.id !== frame.cell) {
      this.send(
        cellToolAnswer(frame.id, {
          error: new ToolError({
            code: "conflict",
            message: `tool(\`${frame.name}\`) was called after its cell had ended; call tools from within a running cell.`,
          }),
        }),
      );
      return;
    }
    // An answer for a cell that has ended meanwhile (interrupted) is not sent: nothing waits for it.
    const answer = (outcome: Parameters<typeof cellToolAnswer>[1]): void => {
      if (this.running === running) this.send(cellToolAnswer(frame.id, outcome));
    };
    Promise.resolve()
      .then(() => running.request.callTool(frame.name, frame.input))
      .then(
        (result) => answer({ result }),
        (error: unknown) => answer({ error }),
      );
  }

  /** Resolves on the kernel's ready frame; rejects on its exit, the signal or the budget. */
  ready(signal: AbortSignal, timeoutMs: number, aborted: () => ToolError): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          fail(
            new ToolError({
              code: "timeout",
              message: `The JavaScript kernel did not start within ${timeoutMs} ms; the machine may be overloaded: try again, or raise \`startTimeoutMs\`.`,
            }),
          ),
        timeoutMs,
      );
      const onAbort = (): void => fail(aborted());
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.frames.removeEventListener("ready", onReady);
      };
      const fail = (error: unknown): void => {
        cleanup();
        reject(error);
      };
      const onReady = (): void => {
        cleanup();
        resolve();
      };
      // Aborted while the process was being spawned: no abort event is coming any more.
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.frames.addEventListener("ready", onReady);
      void this.exited.then((exit) =>
        fail(
          new ToolError({
            code: "unavailable",
            message: `The JavaScript kernel's process ended with ${how(exit)} while starting; check that \`${process.execPath}\` runs.${lastWords(exit)}`,
          }),
        ),
      );
    });
  }

  execute(request: CellRequest): Promise<CellStatus> {
    if (this.running !== undefined) {
      return Promise.reject(
        new ToolError({
          code: "conflict",
          message: `The JavaScript kernel is still running cell ${this.running.id}; wait for it or interrupt it before running another.`,
        }),
      );
    }
    const exit = this.child.exited();
    if (exit !== undefined) {
      return Promise.reject(
        new ToolError({
          code: "unavailable",
          message: `The JavaScript kernel has ended (${how({ ...exit, stderrTail: "" })}); start a fresh one (eval's \`reset\`).`,
        }),
      );
    }
    const id = ++this.cells;
    return new Promise<CellStatus>((resolve, reject) => {
      const running: RunningCell = {
        id,
        request,
        settle: resolve,
        fail: (error) => {
          if (this.running === running) this.running = undefined;
          reject(error);
        },
      };
      this.running = running;
      // Sent before the earlier output is shown: a caller that interrupts on the first output it
      // sees must find the cell already on its way, or the interrupt would name a cell not yet sent.
      this.send({ t: "execute", cell: id, code: rewriteDynamicImports(request.code) });
      this.flushBackground(request);
    });
  }

  private flushBackground(request: CellRequest): void {
    if (this.background.length === 0) return;
    const dropped = this.backgroundDropped;
    request.onOutput({ type: "stream", name: "stderr", text: lateLabel(this.cells - 1) });
    for (const output of this.background) request.onOutput(output);
    if (dropped > 0)
      request.onOutput({
        type: "stream",
        name: "stderr",
        text: `[${dropped} more pieces of earlier output not kept]\n`,
      });
    request.onOutput({ type: "stream", name: "stderr", text: lateEnd });
    this.background = [];
    this.backgroundDropped = 0;
  }

  interrupt(graceMs: number): Promise<boolean> {
    const running = this.running;
    if (this.child.exited() !== undefined) return Promise.resolve(false);
    if (running === undefined) return Promise.resolve(true);
    this.send({ t: "interrupt", cell: running.id });
    // The main thread's "done" is the proof that it runs JavaScript again with its globals intact.
    const started = Date.now();
    return new Promise<boolean>((resolve) => {
      const programs = setInterval(
        () => void this.interruptPrograms(programSignalAfter(Date.now() - started)),
        programsInterruptAfterMs,
      );
      const finish = (survived: boolean): void => {
        clearInterval(programs);
        clearTimeout(timer);
        this.frames.removeEventListener("done", onDone);
        resolve(survived);
      };
      const timer = setTimeout(() => finish(false), graceMs);
      const onDone = (): void => {
        if (this.running !== running) finish(this.child.exited() === undefined);
      };
      this.frames.addEventListener("done", onDone);
      void this.exited.then(() => finish(false));
    });
  }

  // The kernel's process group holds the programs its cells started (unless they made a group of
  // their own); the kernel itself must not get the signal, which would end it, nor a sandbox's
  // wrappers between the kernel and this process, which would end the sandbox.
  private async interruptPrograms(signal: NodeJS.Signals): Promise<void> {
    const rows = await listProcessGroup(this.child.pid);
    const spared = new Set<number>([this.child.pid]);
    for (
      let pid = await this.child.programPid();
      pid !== undefined && !spared.has(pid);
      pid = rows.find((row) => row.pid === pid)?.ppid
    )
      spared.add(pid);
    for (const row of rows) {
      if (spared.has(row.pid)) continue;
      try {
        process.kill(row.pid, signal);
      } catch {
        // Gone meanwhile.
      }
    }
  }

  async dispose(): Promise<void> {
    this.disposing = true;
    this.child.stdin.end();
    await this.child.stop({ graceMs: 1_000 });
  }
}
