import { ToolError } from "@runbound/tool-kit";

// Lengths are checked in the tools and said in each field's description rather than put in the
// schema: OpenAI's strict mode has no string length keywords, and an exported schema that dropped
// the bound would accept what the tool refuses. Lengths count UTF-16 units, as `String.length` does.

/**
 * The one wording of a text field over its limit: "`field` is N characters long; the limit is L
 * characters. <advice>". `advice` is a whole sentence saying how to get under the limit.
 */
export function textTooLongMessage(field: string, length: number, limit: number, advice: string): string {
  return `\`${field}\` is ${length} characters long; the limit is ${limit} characters. ${advice}`;
}

/** The `invalid_input` error of a text field over its limit; see {@link textTooLongMessage}. */
export function textTooLong(field: string, length: number, limit: number, advice: string): ToolError {
  return new ToolError({ code: "invalid_input", message: textTooLongMessage(field, length, limit, advice) });
}

/** The `invalid_input` error of an empty (or blank) text field: "`field` is empty. <advice>". */
export function emptyText(field: string, advice: string): ToolError {
  return new ToolError({ code: "invalid_input", message: `\`${field}\` is empty. ${advice}` });
}

/** @throws ToolError `invalid_input` ({@link textTooLong}) when `value` is longer than `limit`. */
export function assertTextLength(field: string, value: string, limit: number, advice: string): void {
  if (value.length > limit) throw textTooLong(field, value.length, limit, advice);
}

/**
 * `value` when it is not blank and at most `limit` characters long.
 * @throws ToolError `invalid_input`: {@link emptyText} with `whenEmpty`, or {@link textTooLong} with `whenTooLong`.
 */
export function checkedText(
  field: string,
  value: string,
  limit: number,
  advice: { whenEmpty: string; whenTooLong: string },
): string {
  if (value.trim().length === 0) throw emptyText(field, advice.whenEmpty);
  assertTextLength(field, value, limit, advice.whenTooLong);
  return value;
}
