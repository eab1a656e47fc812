import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createEvalTool } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { fixtureProject, testVirtualenv } from "./test-support/python-fixtures.js";

// Issue 22, item 8: pandas 3 reports `type(df).__module__ == "pandas"` (pandas 2: "pandas.core.frame"),
// so the tables are checked against both majors, each in its own cached virtualenv.
const majors = [
  { major: 2, venv: testVirtualenv("pandas2") },
  { major: 3, venv: testVirtualenv("pandas3") },
];

const factories: HostKernelFactory[] = [];
const kernelPids: number[] = [];

afterAll(async () => {
  await Promise.all(factories.map((factory) => factory.dispose()));
  for (const pid of kernelPids) expect((await listProcessGroup(pid)).filter((row) => row.state !== "Z")).toEqual([]);
});

describe.each(majors)("eval tables on pandas $major", ({ major, venv }) => {
  it.skipIf(venv === undefined)(
    "renders a DataFrame and a Series as markdown tables with shape and dtypes",
    async () => {
      const factory = createHostKernelFactory({ python: "native" });
      factories.push(factory);
      const run = createFakeRun({
        tools: [createEvalTool()],
        resources: [
          [KernelFactory, factory],
          [Workdir, fixtureProject(venv)],
        ],
      });
      const call = async (code: string) =>
        resultText(await run.call("eval", { code, description: "show a pandas table in the answer" }));
      expect(await call("import os, pandas as pd\nkernel = os.getpid()\npd.__version__.split('.')[0]")).toMatch(
        new RegExp(`'${major}'$`),
      );
      kernelPids.push(Number(await call("kernel")));
      const frame = await call(
        "frame = pd.DataFrame({'city': ['Oslo', 'Rome', 'Lima'], 'people': [0.7, 2.8, 10.0]})\nframe",
      );
      expect(frame).toMatch(
        /^DataFrame 3 rows × 2 columns\n\| {2}\| city \| people \|\n\|---\|---\|---\|\n\| 0 \| Oslo \| 0\.7 \|\n\| 1 \| Rome \| 2\.8 \|\n\| 2 \| Lima \| 10\.0 \|\ndtypes: city: (object|str), people: float64$/,
      );
      expect(await call("frame['people']")).toBe(
        "Series `people` of 3 values, dtype float64\n|  | people |\n|---|---|\n| 0 | 0.7 |\n| 1 | 2.8 |\n| 2 | 10.0 |",
      );
      expect(await call("display(frame.head(1))")).toMatch(/^DataFrame 1 rows × 2 columns\n/);
    },
    60_000,
  );
});
