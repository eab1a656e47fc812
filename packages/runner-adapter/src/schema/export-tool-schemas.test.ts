import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { examplePlugin } from "../__fixtures__/example-plugin.js";
import { exportToolSchemas } from "./export-tool-schemas.js";
import { JSON_SCHEMA_DIALECT } from "./schema-profile.js";

const exportable = examplePlugin.tools.filter((tool) => tool.name !== "relay");

describe("exportToolSchemas", () => {
  it("names the JSON Schema dialect of every json input schema, and each is a valid 2020-12 schema", () => {
    const ajv = new Ajv2020({ strict: true });
    for (const entry of exportToolSchemas(examplePlugin.tools, "json")) {
      const inputSchema = entry["inputSchema"] as Record<string, unknown>;
      expect(inputSchema["$schema"], String(entry["name"])).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(ajv.validateSchema(inputSchema), `${String(entry["name"])}: ${ajv.errorsText()}`).toBe(true);
    }
    expect(JSON_SCHEMA_DIALECT).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("leaves the header out of the provider formats, which refuse it", () => {
    for (const entry of exportToolSchemas(exportable, "openai"))
      expect(entry["parameters"], String(entry["name"])).not.toHaveProperty("$schema");
    for (const entry of exportToolSchemas(exportable, "anthropic"))
      expect(entry["input_schema"], String(entry["name"])).not.toHaveProperty("$schema");
  });

  it("throws for a tool the format's profile cannot express instead of listing a schema that lies", () => {
    expect(() => exportToolSchemas(examplePlugin.tools, "openai")).toThrow(
      "The input schema of `relay` cannot be exported in the `openai-strict` profile",
    );
  });
});
