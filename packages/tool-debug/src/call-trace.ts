/** One call into the workdir's code, as the tracer recorded it, with the calls it made. */
export interface TracedCall {
  name: string;
  file: string;
  line: number;
  args: Array<[string, string]>;
  /** How it ended: returned a value, yielded, raised; undefined when the trace ended first. */
  outcome?: { kind: "return" | "yield" | "raise"; value?: string };
  calls: TracedCall[];
}

/** The calls of a trace file (JSON lines `["call", name, file, line, depth, args]`, `[kind, depth, value]`), as a forest. */
export function parseCallTrace(text: string): { roots: TracedCall[]; events: number } {
  const roots: TracedCall[] = [];
  const open: TracedCall[] = [];
  let events = 0;
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    let event: unknown[];
    try {
      event = JSON.parse(line) as unknown[];
    } catch {
      continue; // A line cut by the program's end.
    }
    events++;
    if (event[0] === "call") {
      const call: TracedCall = {
        name: String(event[1]),
        file: String(event[2]),
        line: Number(event[3]),
        args: (event[5] as Array<[string, string]>) ?? [],
        calls: [],
      };
      (open.at(-1)?.calls ?? roots).push(call);
      open.push(call);
    } else {
      const call = open.pop();
      if (call === undefined) continue;
      const kind = event[0] as "return" | "yield" | "raise";
      call.outcome = { kind, ...(typeof event[2] === "string" ? { value: event[2] } : {}) };
    }
  }
  return { roots, events };
}

function signature(call: TracedCall): string {
  return `${call.name}(${call.args.map(([name, value]) => `${name}=${value}`).join(", ")})${outcomeText(call)}{${call.calls.map(signature).join(";")}}`;
}

function outcomeText(call: TracedCall): string {
  if (call.outcome === undefined) return " (still running)";
  if (call.outcome.kind === "raise") return " raised";
  return ` ${call.outcome.kind === "yield" ? "yielded" : "→"} ${call.outcome.value ?? ""}`.trimEnd();
}

/** What {@link renderCallTrace} gives: the lines, and how many calls were left out of them. */
export interface RenderedTrace {
  lines: string[];
  calls: number;
  omittedCalls: number;
}

function count(call: TracedCall): number {
  return 1 + call.calls.reduce((sum, child) => sum + count(child), 0);
}

/**
 * The calls as indented lines, bounded: identical consecutive calls (same arguments, outcome and
 * callees) are one line `× N`; a run of more than three consecutive calls of one function with
 * different arguments shows the first two and the last; the first call of each function says where it is.
 */
export function renderCallTrace(roots: readonly TracedCall[], maxLines: number): RenderedTrace {
  const lines: string[] = [];
  const located = new Set<string>();
  let omittedCalls = 0;
  const total = roots.reduce((sum, call) => sum + count(call), 0);
  const emit = (call: TracedCall, depth: number, times: number): void => {
    if (lines.length >= maxLines) {
      omittedCalls += count(call) * times;
      return;
    }
    const key = `${call.file}:${call.name}`;
    const where = located.has(key) ? "" : `  [${call.file}:${call.line}]`;
    located.add(key);
    const args = call.args.map(([name, value]) => `${name}=${value}`).join(", ");
    lines.push(
      `${"  ".repeat(Math.min(depth, 12))}${call.name}(${args})${outcomeText(call)}${times > 1 ? `  × ${times}` : ""}${where}`,
    );
    walk(call.calls, depth + 1);
  };
  const walk = (calls: readonly TracedCall[], depth: number): void => {
    let index = 0;
    while (index < calls.length) {
      const call = calls[index]!;
      let same = 1;
      while (index + same < calls.length && signature(calls[index + same]!) === signature(call)) same++;
      if (same > 1) {
        emit(call, depth, same);
        index += same;
        continue;
      }
      let run = 1;
      while (index + run < calls.length && calls[index + run]!.name === call.name) run++;
      if (run > 3) {
        emit(call, depth, 1);
        emit(calls[index + 1]!, depth, 1);
        const skipped = calls.slice(index + 2, index + run - 1);
        const skippedCalls = skipped.reduce((sum, item) => sum + count(item), 0);
        if (lines.length < maxLines)
          lines.push(`${"  ".repeat(Math.min(depth, 12))}… ${skipped.length} more call(s) of ${call.name}`);
        omittedCalls += skippedCalls;
        emit(calls[index + run - 1]!, depth, 1);
        index += run;
        continue;
      }
      emit(call, depth, 1);
      index++;
    }
  };
  walk(roots, 0);
  return { lines, calls: total, omittedCalls };
}
