import { headOf } from "@runbound/runtime-kit";

/** A program and its arguments, started as they are (no shell). */
export interface WorkerCommand {
  /** An absolute path, or a name looked up on PATH. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
}

/** A worker command: a command line for `/bin/sh -c` (as a user types it after `--worker-fast`), or a program with arguments. */
export type WorkerCommandLine = string | WorkerCommand;

/** The program and arguments to start for a worker command. */
export function toWorkerCommand(line: WorkerCommandLine): Required<WorkerCommand> {
  if (typeof line === "string") return { command: "/bin/sh", args: ["-c", line] };
  return { command: line.command, args: line.args ?? [] };
}

/** The command as a user would recognise it, short enough for a message. */
export function displayWorkerCommand(line: WorkerCommandLine): string {
  const text = typeof line === "string" ? line : [line.command, ...(line.args ?? [])].join(" ");
  return headOf(text, 120);
}
