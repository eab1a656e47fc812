import { describe, expect, it } from "vitest";
import { withoutDebuggerChatter } from "./debugger-chatter.js";

describe("withoutDebuggerChatter", () => {
  it("drops dlv's banner and lldb's echoed init commands, keeping the program's lines", () => {
    expect(withoutDebuggerChatter("Type 'dlv help' for list of commands.\nresult 5\n")).toBe("result 5\n");
    expect(
      withoutDebuggerChatter(
        "Running initCommands:\n(lldb) command script import '/x/lldb_lookup.py'\n(lldb) command source -s true '/x/lldb_commands'\n",
      ),
    ).toBe("");
    expect(withoutDebuggerChatter("DAP server listening at: 127.0.0.1:4000\r\n")).toBe("");
  });

  it("leaves output without chatter as it is, a line that merely mentions lldb included", () => {
    expect(withoutDebuggerChatter("result 5\n")).toBe("result 5\n");
    expect(withoutDebuggerChatter("using (lldb) here\npartial")).toBe("using (lldb) here\npartial");
  });
});
