// A plugin whose tool answers with text and a PNG, to test how `runbound call` saves images.
import { definePlugin, defineTool } from "@runbound/tool-kit";
import * as v from "valibot";

// The 8-byte PNG signature is enough for the CLI, which saves the bytes as they are.
export const pngBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const snapshot = defineTool({
  name: "snapshot",
  tier: "read",
  description: "Answers a caption and an image.",
  input: v.strictObject({}),
  requires: [],
  parallelSafe: true,
  run: async () => ({ content: [{ type: "text", text: "a picture:" }, { type: "image", data: pngBytes.toString("base64"), mimeType: "image/png" }] }),
});

export default definePlugin({ name: "image-plugin", version: "1.0.0", tools: [snapshot] });
