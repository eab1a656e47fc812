import { assertTextLength, emptyText } from "@runbound/runtime-kit";

/** The longest text any field of the debug tool takes (a path, an argument, an expression). */
export const MAX_TEXT_LENGTH = 4096;

/** What the checked fields hold, by name; `args` entries are checked one by one. */
export interface TextFields {
  program?: string | undefined;
  file?: string | undefined;
  expression?: string | undefined;
  args?: readonly string[] | undefined;
  module?: string | undefined;
  cwd?: string | undefined;
  test?: string | undefined;
  functions?: readonly string[] | undefined;
  filters?: readonly string[] | undefined;
  env?: ReadonlyArray<{ name: string; value: string }> | undefined;
  points?:
    | ReadonlyArray<{
        condition?: string | undefined;
        hit_condition?: string | undefined;
        log_message?: string | undefined;
      }>
    | undefined;
}

function check(field: string, value: string, mayBeEmpty: boolean): void {
  if (!mayBeEmpty && value.length === 0)
    throw emptyText(field, "Give it a value, or leave the field out for an op that does not need it.");
  assertTextLength(field, value, MAX_TEXT_LENGTH, "Shorten it.");
}

/**
 * Refuse empty or over-long text fields. Checked here rather than with `v.minLength`/`v.maxLength`:
 * OpenAI's strict mode has no string length keywords, and an exported schema that dropped them would
 * accept what the tool refuses.
 */
export function assertTextFields(fields: TextFields): void {
  for (const field of ["program", "file", "expression", "module", "cwd", "test"] as const) {
    const value = fields[field];
    if (value !== undefined) check(field, value, false);
  }
  fields.args?.forEach((argument, index) => check(`args[${index}]`, argument, true));
  fields.functions?.forEach((name, index) => check(`functions[${index}]`, name, false));
  fields.filters?.forEach((filter, index) => check(`filters[${index}]`, filter, false));
  fields.env?.forEach(({ name, value }, index) => {
    check(`env[${index}].name`, name, false);
    check(`env[${index}].value`, value, true);
  });
  fields.points?.forEach((point, index) => {
    for (const field of ["condition", "hit_condition", "log_message"] as const) {
      const value = point[field];
      if (value !== undefined) check(`points[${index}].${field}`, value, false);
    }
  });
}
