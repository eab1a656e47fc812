// rxjs has no module near 5,000 lines, and the write-time answer for a large file is one of the goals
// (p50 ≤ 600 ms), so the TypeScript project gets one synthesized at setup, before the baseline: 600
// small pipelines over rxjs's own Observable and operators, each a type-correct function that uses the
// one before it, so the file is as dense with types and references as real code.
const pipelines = 600;

function pipeline(index) {
  const previous = index === 0 ? "source" : `pipeline${index - 1}(source).pipe(map((text) => text.length))`;
  return [
    `export function pipeline${index}(source: Observable<number>): Observable<string> {`,
    `  const start: Observable<number> = ${previous};`,
    "  return start.pipe(",
    `    filter((value: number) => value % ${(index % 7) + 2} === 0),`,
    `    map((value: number) => value * ${index + 1}),`,
    "    scan((total: number, value: number) => total + value, 0),",
    `    map((total: number) => \`${index}:\${total}\`),`,
    "  );",
    "}",
    "",
  ];
}

export const largeTypeScriptFile = {
  path: "src/internal/benchLargePipelines.ts",
  content() {
    const header = [
      "// Synthesized by runbound's bench/lsp/agreement benchmark: a large, type-correct module.",
      "import { Observable } from './Observable';",
      "import { filter } from './operators/filter';",
      "import { map } from './operators/map';",
      "import { scan } from './operators/scan';",
      "",
    ];
    return [...header, ...Array.from({ length: pipelines }, (_, index) => pipeline(index)).flat()].join("\n");
  },
};
