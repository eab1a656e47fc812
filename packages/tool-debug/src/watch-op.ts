import { textResult, ToolError, type ToolResult } from "@runbound/tool-kit";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DebugSession } from "./debug-session.js";
import { defaultThread } from "./describe-stop.js";

/** How a watched variable is accessed to stop the program. */
export const WATCH_ACCESS = ["write", "read", "readWrite"] as const;

/**
 * watch (expression, frame_id?, access?): a data breakpoint on a variable of a frame (default the top
 * one), added to those already set; without an expression, clears them. Only adapters that answer
 * `dataBreakpointInfo` (of those tested, dlv) can: the others are refused by name.
 */
export async function watchOp(
  session: DebugSession,
  expression: string | undefined,
  frameId: number | undefined,
  access: (typeof WATCH_ACCESS)[number] = "write",
): Promise<ToolResult> {
  if (session.capabilities.supportsDataBreakpoints !== true) {
    throw new ToolError({
      code: "invalid_input",
      message: `${session.settings.adapter.id} does not support data breakpoints (it does not announce \`supportsDataBreakpoints\`); of the adapters tested only delve (dlv) does. Use a conditional breakpoint instead (op \`breakpoints\` with \`points: [{line, condition}]\`).`,
    });
  }
  if (expression === undefined) {
    await session.setDataBreakpoints([]);
    return textResult("Cleared the data breakpoints.", { watches: [] });
  }
  if (session.state !== "stopped") {
    throw new ToolError({
      code: "conflict",
      message: `Op \`watch\` needs the program stopped (to find \`${expression}\` in a frame), but it is ${session.state}. Call op \`pause\` first, or set a breakpoint.`,
    });
  }
  const frame =
    frameId ??
    (
      await session.request<DebugProtocol.StackTraceResponse>("stackTrace", {
        threadId: await defaultThread(session),
        startFrame: 0,
        levels: 1,
      })
    ).body?.stackFrames[0]?.id;
  const info = await session.request<DebugProtocol.DataBreakpointInfoResponse>("dataBreakpointInfo", {
    name: expression,
    ...(frame === undefined ? {} : { frameId: frame }),
  });
  const dataId = info.body?.dataId;
  if (dataId === null || dataId === undefined) {
    throw new ToolError({
      code: "invalid_input",
      message: `${session.settings.adapter.id} cannot watch \`${expression}\`: ${info.body?.description ?? "no data id"}. Give a variable of the frame (op \`locals\` lists them).`,
    });
  }
  const accessTypes = info.body.accessTypes;
  if (accessTypes !== undefined && !accessTypes.includes(access)) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`${expression}\` can be watched for ${accessTypes.join(", ")}, not \`${access}\`.`,
    });
  }
  const list = [
    ...session.dataBreakpoints.filter((item) => item.dataId !== dataId),
    { dataId, description: info.body.description || expression, accessType: access },
  ];
  const rows = await session.setDataBreakpoints(list);
  const lines = rows.map(
    (row) =>
      `  ${row.description} (${row.accessType}): ${row.verified ? "verified" : "NOT verified"}${row.message === undefined ? "" : ` — ${row.message}`}`,
  );
  return textResult(
    `Data breakpoints (the program stops when the watched memory is accessed; \`continue\` to run to it):\n${lines.join("\n")}`,
    {
      watches: rows.map((row) => ({
        description: row.description,
        access: row.accessType,
        verified: row.verified,
        ...(row.message === undefined ? {} : { message: row.message }),
      })),
    },
  );
}
