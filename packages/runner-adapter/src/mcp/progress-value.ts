/**
 * MCP requires a request's `progress` to grow with every notice. A tool that reports no numbers gets a
 * running count; one that does keeps its own numbers, and a notice that repeats them (a heartbeat, a
 * message without new numbers) moves them on by a step too small to show, so no notice breaks the rule.
 */
export function createProgressCounter(): (reported: number | undefined, total: number | undefined) => number {
  let sent = 0;
  let toolCounts = false;
  return (reported, total) => {
    if (reported !== undefined && reported > sent) {
      toolCounts = true;
      sent = reported;
    } else {
      toolCounts ||= reported !== undefined;
      sent = toolCounts ? sent + Math.max(total ?? sent, 1) * 1e-9 : sent + 1;
    }
    return sent;
  };
}
