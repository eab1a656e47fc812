import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { assertValidPlugin, definePlugin, type Plugin } from "./define-plugin.js";
import { defineTool } from "./define-tool.js";
import type { ResourceProvider } from "./resource.js";
import type { WriteObserver } from "./write-observer.js";

const echo = defineTool({
  name: "echo",
  tier: "read",
  description: "Echoes.",
  input: v.strictObject({ text: v.pipe(v.string(), v.description("Text to echo.")) }),
  requires: [],
  parallelSafe: true,
  run: async (input) => input.text,
});

describe("definePlugin", () => {
  it("refuses two tools with one name", () => {
    expect(() => definePlugin({ name: "p", version: "1.0.0", tools: [echo, echo] })).toThrow(
      "defines tool `echo` twice",
    );
  });

  it("refuses an unknown specificationVersion, naming it and the one understood", () => {
    const future = {
      ...definePlugin({ name: "p", version: "1.0.0", tools: [echo] }),
      specificationVersion: "tool-v9",
    } as unknown as Plugin;
    expect(() => assertValidPlugin(future)).toThrow(
      "declares specificationVersion `tool-v9`, but this host understands `tool-v1`",
    );
  });

  it.each([
    ["missing", undefined],
    ["a string", "echo"],
    ["an object of tools", { echo }],
  ])("refuses a plugin whose `tools` is %s, naming what to build", (_label, tools) => {
    const plugin = { ...definePlugin({ name: "p", version: "1.0.0", tools: [] }), tools } as unknown as Plugin;
    expect(() => assertValidPlugin(plugin)).toThrow(
      expect.objectContaining({
        code: "invalid_plugin",
        message: "Plugin `p` has no `tools` array; build it with `definePlugin({ name, version, tools: [...] })`.",
      }),
    );
  });

  it("has no observers or resource providers unless given, and keeps those given", () => {
    const plugin = definePlugin({ name: "p", version: "1.0.0", tools: [echo] });
    expect(plugin).toEqual({
      specificationVersion: "tool-v1",
      name: "p",
      version: "1.0.0",
      tools: [echo],
      observers: [],
      resourceProviders: [],
    });
    const observer = { name: "o" } as unknown as WriteObserver;
    const provider = { key: { id: "k" } } as unknown as ResourceProvider<unknown>;
    const full = definePlugin({
      name: "p",
      version: "1.0.0",
      tools: [echo],
      observers: [observer],
      resourceProviders: [provider],
    });
    expect([full.observers, full.resourceProviders]).toEqual([[observer], [provider]]);
  });

  it.each([
    [
      "no value at all",
      undefined,
      "Plugin `undefined` declares specificationVersion `undefined`, but this host understands `tool-v1`. Install a version of the plugin built against @runbound/tool-kit with `tool-v1`.",
    ],
    ["an empty name", { name: "" }, "Plugin `` needs a non-empty `name` and `version` (use the package's)."],
    ["a name that is not text", { name: 7 }, "Plugin `7` needs a non-empty `name` and `version` (use the package's)."],
    ["an empty version", { version: "" }, "Plugin `p` needs a non-empty `name` and `version` (use the package's)."],
    [
      "a version that is not text",
      { version: 1 },
      "Plugin `p` needs a non-empty `name` and `version` (use the package's).",
    ],
  ])("refuses a plugin with %s, naming what is wrong", (_label, override, message) => {
    const plugin =
      override === undefined ? undefined : { ...definePlugin({ name: "p", version: "1.0.0", tools: [] }), ...override };
    expect(() => assertValidPlugin(plugin as unknown as Plugin)).toThrow(
      expect.objectContaining({ code: "invalid_plugin", message }),
    );
  });

  it("refuses a tool built against another contract version inside a valid plugin", () => {
    const plugin = {
      ...definePlugin({ name: "p", version: "1.0.0", tools: [] }),
      tools: [{ ...echo, specificationVersion: "tool-v0" }],
    } as unknown as Plugin;
    expect(() => assertValidPlugin(plugin)).toThrow("tool `echo` declares specificationVersion `tool-v0`");
  });
});
