import { ToolError } from "@runbound/tool-kit";

/** One variable `launch` adds to the program's environment, as the tool's input gives it. */
export interface ProgramVariable {
  name: string;
  value: string;
}

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables as a record for the adapter. A list of `{name, value}` rather than an object in the
 * input, because strict tool-calling schemas (OpenAI's) cannot express an object with free keys.
 *
 * @throws ToolError `invalid_input` for a name that is not a variable name, or one given twice.
 */
export function programEnvironment(
  variables: readonly ProgramVariable[] | undefined,
): Record<string, string> | undefined {
  if (variables === undefined) return undefined;
  const environment: Record<string, string> = {};
  for (const [index, { name, value }] of variables.entries()) {
    if (!variableName.test(name)) {
      throw new ToolError({
        code: "invalid_input",
        message: `\`env[${index}].name\` is \`${name}\`, which is not an environment variable name; use letters, digits and underscores, not starting with a digit, as in \`DEBUG\`.`,
      });
    }
    if (Object.hasOwn(environment, name))
      throw new ToolError({
        code: "invalid_input",
        message: `\`env\` names \`${name}\` twice; give each variable once.`,
      });
    environment[name] = value;
  }
  return environment;
}
