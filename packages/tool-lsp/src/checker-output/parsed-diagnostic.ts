/** One finding read from a project checker's output, before its path is made workspace-relative. */
export interface ParsedDiagnostic {
  /** The file as the checker printed it: absolute, or relative to the directory it ran in. Absent for a finding about the whole project. */
  file?: string;
  /** 1-based line. */
  line?: number;
  severity: "error" | "warning" | "info";
  /** The checker's code for it, e.g. `TS2322`, `reportAssignmentType`, `E0308`. */
  code?: string;
  message: string;
}
