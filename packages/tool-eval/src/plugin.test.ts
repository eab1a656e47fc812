import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, describePluginConformance } from "@runbound/tool-kit/testing";
import { describe, expect, it } from "vitest";
import { createHostKernelFactory } from "./host-kernel-factory.js";
import evalPluginDefault, { createEvalPlugin, evalPlugin, KernelFactory } from "./index.js";
import { fixtureProject, testVirtualenv } from "./test-support/python-fixtures.js";

const venv = testVirtualenv();
const factories: Array<ReturnType<typeof createHostKernelFactory>> = [];

describePluginConformance(evalPlugin, {
  resources: () => {
    const factory = createHostKernelFactory({ python: "native" });
    factories.push(factory);
    return [
      [KernelFactory, factory],
      [Workdir, fixtureProject(venv)],
    ];
  },
  sampleInputs: { eval: { code: "print('hello')\n1 + 1", description: "print a greeting and add numbers" } },
});

describe("plugin", () => {
  it("is the default export, named after the package, with eval (exec, serialized) and a default kernel factory", async () => {
    expect(evalPluginDefault).toBe(evalPlugin);
    expect(evalPlugin.name).toBe("@runbound/tool-eval");
    expect(
      evalPlugin.tools.map((tool) => [tool.name, tool.tier, tool.parallelSafe, tool.requires.map((key) => key.id)]),
    ).toEqual([["eval", "exec", false, ["eval.kernel_factory", "run.workdir"]]]);
    const provider = evalPlugin.resourceProviders[0]!;
    expect(provider.key).toBe(KernelFactory);
    const workdir = fixtureProject(venv);
    const instance = await provider.create({ workdir, signal: new AbortController().signal });
    expect(await instance.describe?.()).toMatch(
      /^python: native-python \(the project's \.venv\/bin\/python \(CPython 3\.\d+\.\d+\); on the host, with this machine's files, network and environment\); javascript: javascript \(a child Node v\d+/,
    );
    await instance.dispose?.();
    await Promise.all(factories.map((factory) => factory.dispose()));
  });
});

describe("createEvalPlugin", () => {
  it("hands the factory settings to each run's default factory and the tool settings to eval", async () => {
    const plugin = createEvalPlugin({ factory: { python: "pyodide" }, tool: { inactivityTimeoutMs: 90_000 } });
    const instance = await plugin.resourceProviders[0]!.create({
      workdir: fixtureProject(venv),
      signal: new AbortController().signal,
    });
    expect(await instance.describe?.()).toMatch(
      /^python: pyodide \(Pyodide was asked for: an isolated child Node process, started from a memory snapshot in `[^`]+\/runbound\/pyodide`, made by the first Pyodide kernel\); javascript/,
    );
    expect(plugin.tools[0]!.description).toContain("A cell that writes no output for 90 s is interrupted");
    await instance.dispose?.();
  });
});

describe("createHostKernelFactory describe", () => {
  it("auto without any CPython says Pyodide and why", async () => {
    const factory = createHostKernelFactory({
      pythonCandidates: ["/nonexistent/python3"],
      env: { XDG_CACHE_HOME: "/the/cache" },
    });
    expect((await factory.describe(fixtureProject()))[0]).toEqual({
      language: "python",
      kind: "pyodide",
      reason:
        "no CPython found (no .venv or venv in the workdir, none on PATH); Pyodide in an isolated child Node process, started from a memory snapshot in `/the/cache/runbound/pyodide`, made by the first Pyodide kernel",
    });
  });

  it("pyodide is taken even when a project virtualenv exists", async () => {
    const factory = createHostKernelFactory({ python: "pyodide", pyodide: { snapshotDirectory: false } });
    expect((await factory.describe(fixtureProject(venv)))[0]).toEqual({
      language: "python",
      kind: "pyodide",
      reason: "Pyodide was asked for: an isolated child Node process, loaded without a memory snapshot",
    });
  });

  it("native without a CPython says it is unavailable and start refuses, naming where it looked", async () => {
    const factory = createHostKernelFactory({ python: "native", pythonCandidates: ["/nonexistent/python3"] });
    const workdir = fixtureProject();
    expect((await factory.describe(workdir))[0]!.reason).toBe(
      "unavailable: No CPython found: looked for `.venv/bin/python` and `venv/bin/python` in the workdir and for `/nonexistent/python3`. Create a virtualenv in the project, name an interpreter in `pythonCandidates`, or choose `pyodide`.",
    );
    await expect(factory.start("python", { workdir, signal: new AbortController().signal })).rejects.toMatchObject({
      code: "unavailable",
    });
  });

  it("native names a configured interpreter as configured", async () => {
    const factory = createHostKernelFactory({ python: "native", pythonCandidates: ["/usr/bin/env"] });
    expect((await factory.describe(fixtureProject()))[0]).toEqual({
      language: "python",
      kind: "native-python",
      reason:
        "the configured /usr/bin/env; native CPython was asked for; on the host, with this machine's files, network and environment",
    });
  });
});

describe("eval's length bounds", () => {
  it("refuses an over-long code or description in the tool, before a kernel starts, and keeps the schema free of string lengths", async () => {
    let started = 0;
    const factory = {
      describe: async () => [],
      start: async () => {
        started += 1;
        throw new Error("no kernel in this test");
      },
    };
    const run = createFakeRun({
      plugins: [evalPlugin],
      resources: [
        [KernelFactory, factory],
        [Workdir, fixtureProject()],
      ],
    });
    const longCode = await run.call("eval", { code: "x".repeat(200_001), description: "run a very long cell here" });
    expect(resultErrorCode(longCode)).toBe("invalid_input");
    expect(resultText(longCode)).toContain("`code` is 200001 characters long; the limit is 200000 characters.");
    const longDescription = await run.call("eval", {
      code: "1",
      description: `${"word ".repeat(5)}${"y".repeat(200)}`,
    });
    expect(resultText(longDescription)).toContain("`description` is 225 characters long; the limit is 200 characters.");
    expect(started).toBe(0);
    const entries = (
      evalPlugin.tools[0]!.input as unknown as { entries: Record<string, { pipe: Array<{ type: string }> }> }
    ).entries;
    expect(entries["code"]!.pipe.map((action) => action.type)).not.toContain("max_length");
    expect(entries["description"]!.pipe.map((action) => action.type)).not.toContain("max_length");
  });
});
