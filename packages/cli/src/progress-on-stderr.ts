import type { Writable } from "node:stream";
import type { ProgressUpdate } from "@runbound/tool-kit";
import { isTerminal } from "./cli-io.js";

/**
 * A call's progress notices as lines on stderr (`runbound: eval: preparing a Pyodide memory snapshot
 * (one time)…`), for the commands whose stdout carries only answers: without them a first-time wait
 * of several seconds (a snapshot, a Go build, a server indexing) looks like a hang. Only when stderr is
 * a terminal, as git shows its progress: a script reading stderr gets problems, not chatter.
 */
export function progressOnStderr(stderr: Writable, tool: string): ((update: ProgressUpdate) => void) | undefined {
  if (!isTerminal(stderr)) return undefined;
  return (update) => {
    const count =
      update.progress === undefined
        ? ""
        : ` (${update.progress}${update.total === undefined ? "" : `/${update.total}`})`;
    // A closed stderr must not fail the call it reports on.
    stderr.write(`runbound: ${tool}: ${update.message}${count}\n`, () => undefined);
  };
}
