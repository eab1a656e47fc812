import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import { describe, expect, it } from "vitest";
import evalPlugin, {
  KernelFactory,
  resolvePython,
  startJavaScriptKernel,
  startNativePythonKernel,
  startPyodideKernel,
  type Kernel,
  type KernelFactoryInstance,
} from "./index.js";
import { fixtureProject, testVirtualenv } from "./test-support/python-fixtures.js";

const venv = testVirtualenv();

// The README's own-factory example, through the package's public names: a host policy (here: the
// project's CPython for trusted workdirs, Pyodide for the others) made of the shipped kernels.
function ownFactory(trusted: (workdir: string) => boolean): KernelFactoryInstance & { dispose(): Promise<void> } {
  const started = new Set<Kernel>();
  const keep = (kernel: Kernel): Kernel => {
    started.add(kernel);
    void kernel.exited.then(() => started.delete(kernel));
    return kernel;
  };
  return {
    async describe(workdir) {
      return [
        {
          language: "python",
          kind: trusted(workdir) ? "native-python" : "pyodide",
          reason: trusted(workdir) ? "a trusted workdir" : "an untrusted workdir",
        },
        { language: "javascript", kind: "javascript", reason: "a child Node process" },
      ];
    },
    async start(language, options) {
      if (language === "javascript") return keep(await startJavaScriptKernel(options));
      const interpreter = trusted(options.workdir) ? await resolvePython(options.workdir) : undefined;
      return keep(
        interpreter === undefined
          ? await startPyodideKernel(options)
          : await startNativePythonKernel({ ...options, interpreter }),
      );
    },
    async dispose() {
      await Promise.all([...started].map((kernel) => kernel.dispose()));
    },
  };
}

describe.runIf(venv !== undefined)("a host's own kernel factory made of the exported kernel starters", () => {
  it("runs Python in the project's CPython and JavaScript in a child Node, and its dispose leaves no kernel", async () => {
    const workdir = fixtureProject(venv);
    const factory = ownFactory((candidate) => candidate === workdir);
    const run = createFakeRun({
      plugins: [evalPlugin],
      resources: [
        [KernelFactory, factory],
        [Workdir, workdir],
      ],
    });
    const call = async (language: string, code: string) =>
      resultText(await run.call("eval", { code, language, description: "check the host's own kernel factory" }));
    try {
      expect(await call("python", "import sys\nprint(sys.prefix.endswith('.venv') or sys.prefix)\n6 * 7")).toMatch(
        /started CPython [\d.]+ at \.venv\/bin\/python[\s\S]*\nTrue\n42$/,
      );
      expect(await call("javascript", "40 + 2")).toMatch(/\n42$/);
      const pids = [
        Number(await call("python", "import os\nos.getpid()")),
        Number(await call("javascript", "process.pid")),
      ];
      expect(pids.every((pid) => Number.isInteger(pid) && pid > 0)).toBe(true);
      await factory.dispose();
      for (const pid of pids) expect((await listProcessGroup(pid)).filter((row) => row.state !== "Z")).toEqual([]);
    } finally {
      await factory.dispose();
    }
  });
});
