import { ToolError } from "@runbound/tool-kit";

/** The ToolError a promise rejects with; anything else (a fulfilment, another error) fails the test. */
export async function toolErrorOf(attempt: Promise<unknown>): Promise<ToolError> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ToolError.isInstance(error)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}
