import { describe, expect, it } from "vitest";
import type { ToolResult } from "../content.js";
import { assertValidPlugin, type Plugin } from "../define-plugin.js";
import { resultErrorCode } from "../error-result.js";
import { loneSurrogateIndex } from "../find-ill-formed-string.js";
import type { AnyResourceKey } from "../resource.js";
import { createFakeRun } from "./create-fake-run.js";

/** Settings of {@link describePluginConformance}. */
export interface PluginConformanceSettings {
  /** Resources to attach for sample calls, created fresh for each call. */
  resources?: () =>
    Promise<ReadonlyArray<readonly [AnyResourceKey, unknown]>> | ReadonlyArray<readonly [AnyResourceKey, unknown]>;
  /** A valid input per tool name; each is called once and its result checked for shape and size. */
  sampleInputs?: Record<string, unknown>;
  /** The most text one result may hold, in bytes; default 16 KiB (the host's default cap). */
  maxResultBytes?: number;
}

interface SchemaNode {
  type?: string;
  pipe?: ReadonlyArray<{ type?: string }>;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
}

function hasDescription(schema: SchemaNode | undefined): boolean {
  if (schema === undefined) return false;
  if (schema.pipe?.some((action) => action.type === "description")) return true;
  return hasDescription(schema.wrapped);
}

function assertWellFormedResult(result: ToolResult, maxBytes: number): void {
  expect(Array.isArray(result.content)).toBe(true);
  let textBytes = 0;
  for (const part of result.content) {
    if (part.type === "text") {
      expect(typeof part.text).toBe("string");
      textBytes += new TextEncoder().encode(part.text).length;
    } else {
      expect(part.type).toBe("image");
      expect(part.mimeType).toMatch(/^image\//);
      expect(part.data.length).toBeGreaterThan(0);
    }
  }
  expect(textBytes).toBeLessThanOrEqual(maxBytes);
  if (result.isError !== undefined) expect(typeof result.isError).toBe("boolean");
}

/**
 * The conformance suite every plugin's tests call (in the spirit of a shared driver test suite):
 * the plugin is valid for a host, every input field is documented for the model, unknown fields are
 * refused, a string with a lone surrogate is refused, a missing resource is reported as `unavailable`,
 * and sample calls answer well-formed, bounded results.
 */
export function describePluginConformance(plugin: Plugin, settings: PluginConformanceSettings = {}): void {
  const maxBytes = settings.maxResultBytes ?? 16 * 1024;
  describe(`plugin conformance: ${plugin.name}`, () => {
    it("is a valid tool-v1 plugin", () => {
      expect(() => assertValidPlugin(plugin)).not.toThrow();
    });

    for (const tool of plugin.tools) {
      describe(`tool ${tool.name}`, () => {
        it("documents every input field for the model", () => {
          const entries = (tool.input as SchemaNode).entries ?? {};
          const undocumented = Object.entries(entries)
            .filter(([, schema]) => !hasDescription(schema))
            .map(([name]) => name);
          expect(undocumented, `fields of \`${tool.name}\` without v.description(...)`).toEqual([]);
        });

        it("refuses an unknown field with invalid_input", async () => {
          const resources = (await settings.resources?.()) ?? [];
          const run = createFakeRun({ plugins: [plugin], resources });
          const result = await run.call(tool.name, { __not_a_field__: true });
          expect(result.isError).toBe(true);
          expect(resultErrorCode(result)).toBe("invalid_input");
          expect(JSON.stringify(result.content)).toContain("__not_a_field__");
        });

        it("refuses a lone surrogate in the input with invalid_input, in a well-formed message", async () => {
          const resources = (await settings.resources?.()) ?? [];
          const run = createFakeRun({ plugins: [plugin], resources });
          const result = await run.call(tool.name, { "__ill_formed_\ud800__": "\udc00" });
          expect(result.isError).toBe(true);
          expect(resultErrorCode(result)).toBe("invalid_input");
          const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
          expect(text).toContain("lone surrogate");
          expect(loneSurrogateIndex(text), "the message quotes the lone surrogate as an escape, never raw").toBe(-1);
        });

        if (tool.requires.length > 0) {
          it("answers unavailable, naming the resource, when a required resource is missing", async () => {
            const run = createFakeRun({ plugins: [plugin] });
            const result = await run.call(tool.name, settings.sampleInputs?.[tool.name] ?? {});
            expect(resultErrorCode(result)).toBe("unavailable");
            expect(JSON.stringify(result.content)).toContain(tool.requires[0]!.id);
          });
        }

        if (settings.sampleInputs !== undefined && tool.name in settings.sampleInputs) {
          it("answers a sample call with a well-formed, bounded result", async () => {
            const resources = (await settings.resources?.()) ?? [];
            const run = createFakeRun({ plugins: [plugin], resources });
            const result = await run.call(tool.name, settings.sampleInputs![tool.name]);
            assertWellFormedResult(result, maxBytes);
          });
        }
      });
    }
  });
}
