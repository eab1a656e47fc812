// A probe loaded into the measured server with --plugin: its memory after a full collection.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

const memory = defineTool({
  name: "memory",
  tier: "read",
  description:
    "The server's process.memoryUsage() in bytes, after a full garbage collection when the server runs with --expose-gc.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => {
    globalThis.gc?.();
    return JSON.stringify(process.memoryUsage());
  },
});

export default definePlugin({ name: "memory-probe", version: "1.0.0", tools: [memory] });
