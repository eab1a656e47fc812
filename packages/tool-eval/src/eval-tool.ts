import {
  abortedError,
  defineTool,
  ToolError,
  Workdir,
  type AnyTool,
  type ToolContext,
  type ToolResult,
} from "@runbound/tool-kit";
import { assertTextLength, emptyText } from "@runbound/runtime-kit";
import * as v from "valibot";
import { CellTranscript, DEFAULT_TRANSCRIPT_LIMITS, type CellTranscriptLimits } from "./cell-transcript.js";
import { evalOutputSchema } from "./eval-output.js";
import {
  KernelFactory,
  type Kernel,
  type KernelExit,
  type KernelFactoryInstance,
  type KernelLanguage,
} from "./kernel.js";
import { kernelSlot, type KernelSlot } from "./kernel-sessions.js";
import { rewriteMagics } from "./magics/rewrite-magics.js";
import { runCell, type CellBudgets, type CellEnding } from "./run-cell.js";

/** Settings of {@link createEvalTool}. */
export interface EvalSettings {
  /** Milliseconds a cell may go without output before it is stopped (bridge calls pause the clock); default 300 000 (5 min). */
  inactivityTimeoutMs?: number;
  /** Milliseconds a cell may run at all; default 1 800 000 (30 min). */
  wallClockTimeoutMs?: number;
  /** Milliseconds an interrupted cell gets to stop before its kernel is killed; default 5 000. */
  interruptGraceMs?: number;
  /** Bounds of one answer; default {@link DEFAULT_TRANSCRIPT_LIMITS} (16 000 bytes of text). */
  limits?: Partial<CellTranscriptLimits>;
}

const MIN_WORDS = 5;
const MAX_WORDS = 10;

function minutes(milliseconds: number): string {
  return milliseconds % 60_000 === 0
    ? `${milliseconds / 60_000} min`
    : `${(milliseconds / 1_000).toLocaleString("en-US")} s`;
}

// Checked in the tool, not with `v.maxLength`: OpenAI's strict mode has no string length keywords,
// and an exported schema that dropped the bound would accept what the tool refuses.
const maxCodeLength = 200_000;
const maxDescriptionLength = 200;

function checkLength(field: string, value: string, limit: number): void {
  assertTextLength(field, value, limit, "Split the work into smaller cells.");
}

function checkDescription(description: string): void {
  checkLength("description", description, maxDescriptionLength);
  const words = description
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length < MIN_WORDS || words.length > MAX_WORDS) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`description\` has ${words.length} ${words.length === 1 ? "word" : "words"} (\`${description.trim().slice(0, 120)}\`); give ${MIN_WORDS} to ${MAX_WORDS} words saying what the cell does, e.g. \`load the sales csv and plot totals\`.`,
    });
  }
}

function describeExit(exit: KernelExit): string {
  const how = exit.signal === null ? `exit code ${String(exit.code)}` : `signal ${exit.signal}`;
  const tail = exit.stderrTail.trim().split("\n").slice(-10).join("\n");
  return tail === "" ? how : `${how}; the last lines of its stderr:\n${tail}`;
}

// What the answer says about a cell that did not simply finish, and what the slot must remember.
function describeEnding(
  ending: CellEnding,
  kernel: Kernel,
  budgets: CellBudgets,
): { note: string | undefined; lost: string | undefined } {
  if (ending.kind === "finished")
    return {
      note: ending.status === "interrupted" ? "[the cell was interrupted; the kernel's state is kept]" : undefined,
      lost: undefined,
    };
  if (ending.kind === "died") {
    const lost = `The previous ${kernel.label} kernel died during a cell (${describeExit(ending.exit)}); its variables and imports are gone.`;
    return {
      note: `[the kernel died during the cell (${describeExit(ending.exit)}). Its state is lost; the next call starts a fresh kernel.]`,
      lost,
    };
  }
  const why =
    ending.reason === "inactivity"
      ? `the cell wrote no output for ${minutes(budgets.inactivityMs)} (the inactivity budget)`
      : ending.reason === "wall-clock"
        ? `the cell ran longer than the ${minutes(budgets.wallClockMs)} cap`
        : "the call was cancelled";
  if (ending.stateKept)
    return { note: `[stopped: ${why}; it was interrupted and the kernel's state is kept]`, lost: undefined };
  return {
    note: `[stopped: ${why}; it did not stop within ${minutes(budgets.interruptGraceMs)} of the interrupt, so the kernel was killed. Its state is lost; the next call starts a fresh kernel.]`,
    lost: `The previous kernel was killed because a cell did not stop (${why}); its variables and imports are gone.`,
  };
}

async function ensureKernel(
  slot: KernelSlot,
  factory: KernelFactoryInstance,
  language: KernelLanguage,
  workdir: string,
  context: ToolContext<never>,
  reset: boolean,
): Promise<{ kernel: Kernel; notes: string[] }> {
  const notes: string[] = [];
  if (slot.kernel !== undefined && (await isGone(slot.kernel))) {
    const exit = await slot.kernel.exited;
    slot.lostState = `The previous ${slot.kernel.label} kernel exited between calls (${describeExit(exit)}); its variables and imports are gone.`;
    slot.kernel = undefined;
  }
  if (reset && slot.kernel !== undefined) {
    await slot.kernel.dispose();
    slot.kernel = undefined;
    notes.push("[reset: the previous kernel and its state were discarded]");
  }
  if (slot.kernel !== undefined) return { kernel: slot.kernel, notes };
  if (slot.lostState !== undefined) {
    notes.push(`[${slot.lostState} A fresh kernel runs this cell.]`);
    slot.lostState = undefined;
  }
  const kernel = await factory.start(language, {
    workdir,
    signal: context.signal,
    progress: (message) => context.progress({ message }),
  });
  slot.kernel = kernel;
  notes.push(`[started ${kernel.label}]`);
  return { kernel, notes };
}

// A kernel whose process ended settles `exited`; check without waiting.
async function isGone(kernel: Kernel): Promise<boolean> {
  const marker = Symbol("running");
  return (await Promise.race([kernel.exited.then(() => true), Promise.resolve(marker)])) === true;
}

/** The `eval` tool with its budgets and bounds. */
export function createEvalTool(settings: EvalSettings = {}): AnyTool {
  const budgets: CellBudgets = {
    inactivityMs: settings.inactivityTimeoutMs ?? 300_000,
    wallClockMs: settings.wallClockTimeoutMs ?? 1_800_000,
    interruptGraceMs: settings.interruptGraceMs ?? 5_000,
    cancelGraceMs: Math.min(settings.interruptGraceMs ?? 5_000, 200),
  };
  const limits: CellTranscriptLimits = { ...DEFAULT_TRANSCRIPT_LIMITS, ...settings.limits };
  return defineTool({
    name: "eval",
    title: "Run code in a persistent kernel",
    tier: "exec",
    description: [
      "Run a cell of Python (default) or JavaScript in a kernel that keeps its state (variables, imports, loaded data) between calls, like a notebook.",
      "The last expression is echoed; display(x) shows text, tables and images; pandas DataFrames come back as markdown tables with their shape; open matplotlib figures come back as images.",
      "Python also takes %pip install, %cd, !command, x = !command, %%bash, %timeit and %%timeit.",
      "tool(name, input) inside a cell calls another tool of this run (Python: returns its text; JavaScript: await tool(...)).",
      `A cell that writes no output for ${minutes(budgets.inactivityMs)} is interrupted (state kept), or killed if it does not stop (state lost; the answer says which); print progress in long work.`,
      "reset: true starts a fresh kernel first. Output is cut in its middle beyond 16 KB.",
    ].join(" "),
    input: v.strictObject({
      code: v.pipe(v.string(), v.description(`The cell's code, at most ${maxCodeLength} characters.`)),
      description: v.pipe(
        v.string(),
        v.description(
          `What the cell does in ${MIN_WORDS}–${MAX_WORDS} words (at most ${maxDescriptionLength} characters), for the transcript, e.g. "load the sales csv and plot totals".`,
        ),
      ),
      language: v.optional(
        v.pipe(
          v.picklist(["python", "javascript"]),
          v.description("python (default) or javascript; each language has its own kernel."),
        ),
      ),
      reset: v.optional(
        v.pipe(
          v.boolean(),
          v.description("Discard the kernel's state and start a fresh kernel before running the code. Default false."),
        ),
      ),
    }),
    requires: [KernelFactory, Workdir],
    parallelSafe: false,
    output: evalOutputSchema,
    // The host's default call budget (2 min) would cut long cells: this tool keeps its own clocks.
    timeoutMs: budgets.wallClockMs + budgets.interruptGraceMs + 30_000,
    hints: { destructive: true, openWorld: true },
    run: async (input, context): Promise<ToolResult> => {
      checkDescription(input.description);
      checkLength("code", input.code, maxCodeLength);
      const language: KernelLanguage = input.language ?? "python";
      if (input.code.trim() === "" && input.reset !== true) {
        throw emptyText("code", "Give the code to run, or `reset: true` to only start a fresh kernel.");
      }
      const factory = context.resource(KernelFactory);
      const slot = kernelSlot(factory, context.run.id, language);
      const { kernel, notes } = await ensureKernel(
        slot,
        factory,
        language,
        context.resource(Workdir),
        context as ToolContext<never>,
        input.reset === true,
      );
      if (input.code.trim() === "")
        return {
          content: [{ type: "text", text: notes.join("\n") }],
          structured: { language, kernel: kernel.label, status: "ok" },
        };
      const transcript = new CellTranscript(limits);
      const ending = await runCell(kernel, {
        code: language === "python" ? rewriteMagics(input.code) : input.code,
        transcript,
        // A cell calling eval would wait for itself: eval calls of one run never overlap.
        callTool: (name, toolInput) =>
          name === "eval"
            ? Promise.resolve({
                content: [
                  {
                    type: "text",
                    text: "`eval` cannot be called from inside a cell; run the code in this cell directly.",
                  },
                ],
                isError: true,
              })
            : context.callTool(name, toolInput),
        signal: context.signal,
        budgets,
      });
      const { note, lost } = describeEnding(ending, kernel, budgets);
      if (lost !== undefined || (ending.kind === "stopped" && !ending.stateKept)) {
        if (slot.kernel === kernel) slot.kernel = undefined;
        slot.lostState = lost;
        await kernel.dispose();
      }
      if (ending.kind === "stopped" && ending.reason === "cancelled") {
        throw abortedError(context.signal, {
          timeout: "The eval call ran out of time and its cell was stopped.",
          cancelled: "The eval call was cancelled and its cell was stopped.",
        });
      }
      const status = ending.kind === "finished" ? ending.status : ending.kind === "died" ? "died" : "stopped";
      return {
        content: transcript.parts(notes, note === undefined ? [] : [note]),
        ...(status === "ok" ? {} : { isError: true }),
        structured: { language, kernel: kernel.label, status, state: lost === undefined ? "kept" : "lost" },
      };
    },
  });
}

/** The `eval` tool with the default budgets. */
export const evalTool = createEvalTool();
