import { parseCargoJson } from "./checker-output/cargo-json.js";
import { parseDartMachineOutput } from "./checker-output/dart-machine.js";
import { parseGoVetOutput } from "./checker-output/go-vet.js";
import type { ParsedDiagnostic } from "./checker-output/parsed-diagnostic.js";
import { parsePyrightJson } from "./checker-output/pyright-json.js";
import { parseTscOutput } from "./checker-output/tsc.js";
import type { CheckerOutputFormat } from "./server-spec.js";

/** How to read one checker's output: which stream holds the findings and the reader for it. */
export interface CheckerFormat {
  /** `go vet` writes its findings to stderr; the others to stdout. */
  stream: "stdout" | "stderr";
  /** The findings; `undefined` when the output is not in the format at all (a JSON document that does not parse). */
  parse(output: string): ParsedDiagnostic[] | undefined;
}

/** The reader of every {@link CheckerOutputFormat}. */
export const CHECKER_FORMATS: Readonly<Record<CheckerOutputFormat, CheckerFormat>> = {
  tsc: { stream: "stdout", parse: parseTscOutput },
  "pyright-json": { stream: "stdout", parse: parsePyrightJson },
  "go-vet": { stream: "stderr", parse: parseGoVetOutput },
  "cargo-json": { stream: "stdout", parse: parseCargoJson },
  "dart-machine": { stream: "stdout", parse: parseDartMachineOutput },
};
