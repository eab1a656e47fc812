import { readFileSync } from "node:fs";

/**
 * A checker output recorded from the real program (see `src/__fixtures__/checker-output/`; paths
 * under `/home/dev/checker-projects` stand for the temporary directory it ran in). `dart-machine.txt`
 * alone is written by hand from the documented format: no Dart SDK was at hand to record it.
 */
export function recordedOutput(name: string): string {
  return readFileSync(new URL(`../__fixtures__/checker-output/${name}`, import.meta.url), "utf8");
}
