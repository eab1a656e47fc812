// A plugin that prints debug output with console.log, as plugin authors often do.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

// Printed at import too: the server must keep this off stdout as well.
console.log("loading chatty");

const chatty = defineTool({
  name: "chatty",
  tier: "read",
  description: "Logs a line, then answers.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => {
    console.log("debug output from chatty");
    console.info("info output from chatty");
    return "done";
  },
});

export default definePlugin({ name: "logging-plugin", version: "1.0.0", tools: [chatty] });
