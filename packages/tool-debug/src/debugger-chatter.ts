// Lines the adapters write among the program's output that are about the debugger, not the program
// (issue 26): dlv's banner on its own stdio (dlv 1.20) and its DAP listener line; lldb echoing the
// init commands that load Rust's formatters, and its "Running initCommands:" header.
const CHATTER = [
  /^Type 'dlv help' for list of commands\.$/,
  /^DAP server listening at: /,
  /^\(lldb\) /,
  /^Running (init|preRun|launch|stop|exit|terminate|attach)Commands:$/,
];

/** `text` without the lines that are the debugger's own chatter; "" when nothing else is left. */
export function withoutDebuggerChatter(text: string): string {
  if (!CHATTER.some((pattern) => text.split(/\r?\n/).some((line) => pattern.test(line)))) return text;
  return text
    .split(/(?<=\n)/)
    .filter((line) => !CHATTER.some((pattern) => pattern.test(line.replace(/\r?\n$/, ""))))
    .join("");
}
