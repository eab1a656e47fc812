import { ToolError } from "@runbound/tool-kit";

/**
 * `value` when it is non-blank and at most `maxLength` characters long; otherwise an `invalid_input`
 * error naming the field. Lengths are checked here and said in the field's description, not put in
 * the schema: OpenAI's strict mode cannot express a string length.
 */
export function checkedText(field: string, value: string, maxLength: number, example: string): string {
  if (value.trim().length === 0) {
    throw new ToolError({ code: "invalid_input", message: `\`${field}\` is empty; give ${example}.` });
  }
  if (value.length > maxLength) {
    throw new ToolError({
      code: "invalid_input",
      message: `\`${field}\` is ${value.length} characters long; the most is ${maxLength}. Shorten it (point the worker at files instead of pasting them).`,
    });
  }
  return value;
}
