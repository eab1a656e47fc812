import { listProcessGroup } from "@runbound/runtime-kit/testing";
import { defineTool, resultText, Workdir, type ToolResult } from "@runbound/tool-kit";
import { createFakeRun, type FakeRun } from "@runbound/tool-kit/testing";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { createEvalTool, type EvalSettings } from "./eval-tool.js";
import { createHostKernelFactory, type HostKernelFactory } from "./host-kernel-factory.js";
import { KernelFactory } from "./kernel.js";
import { buildWheel } from "./test-support/build-wheel.js";
import { fixtureProject, scratchVirtualenv, testVirtualenv } from "./test-support/python-fixtures.js";

const venv = testVirtualenv();

// A tool a cell can call through the bridge; it takes as long as it is told to.
const slowEcho = defineTool({
  name: "slow_echo",
  tier: "read",
  description: "Answers its text after a delay.",
  input: v.strictObject({ text: v.string(), delay_ms: v.number() }),
  requires: [],
  parallelSafe: true,
  run: async (input) => {
    await new Promise((resolve) => setTimeout(resolve, input.delay_ms));
    return `echo: ${input.text}`;
  },
});

const factories: HostKernelFactory[] = [];
const kernelPids: number[] = [];

afterEach(async () => {
  await Promise.all(factories.splice(0).map((factory) => factory.dispose()));
  // Every kernel and whatever its cells started is gone from the process table.
  for (const pid of kernelPids.splice(0)) expect(await runningInGroup(pid)).toEqual([]);
});

// Zombies have exited; they wait only for the machine's init to reap them.
async function runningInGroup(pid: number): Promise<string[]> {
  return (await listProcessGroup(pid)).filter((row) => row.state !== "Z").map((row) => `${row.pid} ${row.command}`);
}

function session(
  workdir: string,
  settings: EvalSettings = {},
  factory = createHostKernelFactory(),
): {
  run: FakeRun;
  factory: HostKernelFactory;
  call(code: string, extra?: Record<string, unknown>): Promise<ToolResult>;
} {
  factories.push(factory);
  const run = createFakeRun({
    tools: [createEvalTool(settings), slowEcho],
    resources: [
      [KernelFactory, factory],
      [Workdir, workdir],
    ],
  });
  return {
    run,
    factory,
    call: (code, extra = {}) =>
      run.call("eval", { code, description: "check what the python kernel answers here", ...extra }),
  };
}

// A project with its own throwaway virtualenv (installs must not touch the shared one) and a wheel folder.
function wheelProject(): { workdir: string; wheels: string } {
  const workdir = fixtureProject();
  scratchVirtualenv(workdir);
  const wheels = join(workdir, "wheels");
  mkdirSync(wheels);
  return { workdir, wheels };
}

async function kernelPid(call: (code: string) => Promise<ToolResult>): Promise<number> {
  const pid = Number(
    resultText(await call("import os\nos.getpid()"))
      .split("\n")
      .at(-1),
  );
  kernelPids.push(pid);
  return pid;
}

describe.skipIf(venv === undefined)("eval on a native CPython", () => {
  it("prefers the project's .venv over PATH, echoes the last expression and keeps state between cells", async () => {
    const workdir = fixtureProject(venv);
    const { call, factory } = session(workdir);
    expect((await factory.describe(workdir))[0]).toEqual({
      language: "python",
      kind: "native-python",
      reason: expect.stringMatching(/^the project's \.venv\/bin\/python \(CPython 3\.\d+/),
    });
    const first = resultText(await call("import sys\nx = 41\nprint('before')\nsys.prefix"));
    expect(first).toMatch(/^\[started CPython 3\.\d+\.\d+ at \.venv\/bin\/python\]\nbefore\n'/);
    expect(first).toContain(`'${join(workdir, ".venv")}'`);
    expect(resultText(await call("x += 1; x"))).toBe("42");
    await kernelPid(call);
  });

  it("does not echo a last expression followed by `;`, and does echo one where the `;` is in a string or a comment", async () => {
    const { call } = session(fixtureProject(venv));
    await call("x = 5\né = 'ü'");
    const cases: Array<[code: string, echoed: string | undefined]> = [
      ["x;", undefined],
      ["x ;  # quiet", undefined],
      ["x \\\n;", undefined],
      ["(x,\n x);", undefined],
      ["é + 'ß' ;  # é", undefined],
      ["x + 1  # ;", "6"],
      ["'a;b'", "'a;b'"],
      ["f'{x};'", "'5;'"],
      ["print(1); x + 2", "1\n7"],
    ];
    for (const [code, echoed] of cases)
      expect([code, resultText(await call(code))]).toEqual([code, echoed ?? "(no output)"]);
    await kernelPid(call);
  });

  it("uses python3 from PATH when the project has no virtualenv", async () => {
    const workdir = fixtureProject();
    const { call, factory } = session(workdir);
    expect((await factory.describe(workdir))[0]!.reason).toMatch(
      /from PATH; no \.venv or venv in the workdir; on the host, with this machine's files, network and environment$/,
    );
    const answer = resultText(await call("import sys\nsys.prefix.startswith(" + JSON.stringify(workdir) + ")"));
    expect(answer).toMatch(/^\[started CPython 3\.\d+\.\d+ at \/.*python3?\]\nFalse$/);
    await kernelPid(call);
  });

  it("renders a DataFrame as a markdown table with its shape and a figure as a PNG image", async () => {
    const { call } = session(fixtureProject(venv));
    const table = resultText(
      await call("import pandas as pd\npd.DataFrame({'city': ['Oslo', 'Rome', 'Lima'], 'people': [0.7, 2.8, 10.0]})"),
    );
    expect(table).toContain("DataFrame 3 rows × 2 columns\n|  | city | people |\n|---|---|---|\n| 0 | Oslo | 0.7 |");
    expect(table).not.toContain("<table");
    const figure = await call("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nprint('plotted')");
    const image = figure.content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(
      Buffer.from(image?.type === "image" ? image.data : "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect(resultText(figure)).toContain("plotted");
    await kernelPid(call);
  });

  it("reset discards the state; a traceback shows the cell, not the runner", async () => {
    const { call } = session(fixtureProject(venv));
    await call("kept = 1");
    const answer = await call("kept", { reset: true });
    expect(answer.isError).toBe(true);
    expect(resultText(answer)).toContain("[reset: the previous kernel and its state were discarded]");
    expect(resultText(answer)).toMatch(
      /File "<cell-1>", line 1, in <module>\n {4}kept\nNameError: name 'kept' is not defined/,
    );
    expect(resultText(answer)).not.toMatch(/runbound_cell|native_runner/);
    await kernelPid(call);
  });

  it("rewrites magics: !cmd output, x = !cmd, %%bash, and an unknown magic is named", async () => {
    const { call } = session(fixtureProject(venv));
    expect(resultText(await call("!echo from-shell\nfiles = !printf 'a\\nb\\n'\nfiles"))).toMatch(
      /from-shell\n\['a', 'b'\]$/,
    );
    expect(resultText(await call("%%bash\necho one\necho two >&2"))).toBe("one\ntwo");
    expect(resultText(await call("name = 'kernel'\n!echo '{not python}' {1 + 1} $name $UNSET_NAME"))).toBe(
      "{not python} 2 kernel",
    );
    expect(resultText(await call("%load_ext autoreload"))).toContain(
      "The magic `%load_ext` is not supported. Supported: `%pip`",
    );
    await kernelPid(call);
  });

  it("what C code and child programs write to fd 1 is the cell's output and cannot spoof the channel", async () => {
    const { call } = session(fixtureProject(venv));
    const spoof = JSON.stringify({ type: "done", status: "ok" });
    const answer = resultText(
      await call(
        `import os, ctypes\nos.system(${JSON.stringify(`echo '${spoof}'`)})\nctypes.CDLL(None).printf(b"from C\\n")\nx = 1 + 1\nx`,
      ),
    );
    // A thread forwards fd 1, so those lines may come before or after the echo, but always within the cell.
    const [started, ...lines] = answer.split("\n");
    expect(started).toMatch(/^\[started /);
    expect(lines.sort()).toEqual(["2", "from C", spoof].sort());
    await kernelPid(call);
  });

  it("a frame a cell writes to the channel's own descriptor (fd 4) is its output, not obeyed (issue 22, item 6)", async () => {
    const { call } = session(fixtureProject(venv));
    const forged = JSON.stringify({ type: "done", status: "ok" });
    const answer = resultText(
      await call(
        `import os, time\nos.write(4, ${JSON.stringify(`${forged}\n`)}.encode())\nos.write(4, b"half a line, ")\ntime.sleep(0.3)\nprint("after the forged end")\n'last'`,
      ),
    );
    // The half line is shown as written: glued to what the cell printed next.
    expect(answer.split("\n").slice(1)).toEqual([forged, "half a line, after the forged end", "'last'"]);
    expect(resultText(await call("'next cell'"))).toBe("'next cell'");
    await kernelPid(call);
  });

  it("SIGINT interrupts a busy cell and keeps the state", async () => {
    const workdir = fixtureProject(venv);
    const factory = createHostKernelFactory();
    factories.push(factory);
    const kernel = await factory.start("python", { workdir, signal: new AbortController().signal });
    kernelPids.push(kernel.pid!);
    const outputs: string[] = [];
    const request = {
      onOutput: (output: { type: string }) => void outputs.push(output.type),
      callTool: () => Promise.reject(new Error("no bridge here")),
    };
    expect(await kernel.execute({ ...request, code: "kept = 7" })).toBe("ok");
    const busy = kernel.execute({ ...request, code: "while True:\n    pass" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await kernel.interrupt(5_000)).toBe(true);
    expect(await busy).toBe("interrupted");
    expect(outputs).toContain("error");
    const seen: string[] = [];
    expect(
      await kernel.execute({
        ...request,
        code: "kept",
        onOutput: (output) => void seen.push(output.type === "result" ? output.text : output.type),
      }),
    ).toBe("ok");
    expect(seen).toEqual(["7"]);
  });

  it("the inactivity clock interrupts a silent cell (state kept) but spares a chatty one and one waiting on a bridge call", async () => {
    const { call } = session(fixtureProject(venv), { inactivityTimeoutMs: 1_500, interruptGraceMs: 3_000 });
    await call("kept = 'still here'");
    const silent = await call("import time\ntime.sleep(60)");
    expect(silent.isError).toBe(true);
    expect(resultText(silent)).toContain(
      "[stopped: the cell wrote no output for 1.5 s (the inactivity budget); it was interrupted and the kernel's state is kept]",
    );
    const chatty = await call("import time\nfor step in range(8):\n    print(step)\n    time.sleep(0.5)\n'done'");
    expect(chatty.isError).toBeUndefined();
    expect(resultText(chatty)).toBe("0\n1\n2\n3\n4\n5\n6\n7\n'done'");
    const bridged = await call("answer = tool('slow_echo', {'text': 'late', 'delay_ms': 4000})\nprint(kept)\nanswer");
    expect(bridged.isError).toBeUndefined();
    expect(resultText(bridged)).toBe("still here\n'echo: late'");
    await kernelPid(call);
  });

  it("kills a cell that ignores the interrupt once its grace is over, says the state is lost, and starts fresh next time", async () => {
    const { call } = session(fixtureProject(venv), { inactivityTimeoutMs: 1_000, interruptGraceMs: 1_000 });
    const pid = await kernelPid(call);
    const stubborn = await call(
      "import time\nwhile True:\n    try:\n        time.sleep(30)\n    except KeyboardInterrupt:\n        pass",
    );
    expect(resultText(stubborn)).toContain(
      "it did not stop within 1 s of the interrupt, so the kernel was killed. Its state is lost; the next call starts a fresh kernel.",
    );
    expect(await runningInGroup(pid)).toEqual([]);
    const next = resultText(await call("1 + 1"));
    expect(next).toMatch(
      /^\[The previous kernel was killed because a cell did not stop \(the cell wrote no output for 1 s \(the inactivity budget\)\); its variables and imports are gone\. A fresh kernel runs this cell\.\]\n\[started CPython/,
    );
    expect(next.endsWith("\n2")).toBe(true);
    await kernelPid(call);
  });

  it("reports a kernel that died mid-cell with its exit and stderr, then starts a fresh one saying state was lost", async () => {
    const { call } = session(fixtureProject(venv));
    await call("kept = 1");
    const died = await call(
      "import os, sys\nsys.__stderr__.write('last words\\n'); sys.__stderr__.flush()\nos._exit(3)",
    );
    expect(died.isError).toBe(true);
    expect(resultText(died)).toContain(
      "[the kernel died during the cell (exit code 3; the last lines of its stderr:\nlast words). Its state is lost; the next call starts a fresh kernel.]",
    );
    const next = resultText(await call("'kept' in globals()"));
    expect(next).toMatch(
      /^\[The previous CPython 3\.\d+\.\d+ at \.venv\/bin\/python kernel died during a cell \(exit code 3;[^\]]*its variables and imports are gone\. A fresh kernel runs this cell\.\]/,
    );
    expect(next.endsWith("\nFalse")).toBe(true);
    await kernelPid(call);
  });

  it("a cancelled call interrupts its cell and answers cancelled; the kernel keeps its state", async () => {
    const { run, call } = session(fixtureProject(venv));
    await call("kept = 5");
    const controller = new AbortController();
    const pending = run.call(
      "eval",
      { code: "import time\ntime.sleep(30)", description: "wait long enough to be cancelled" },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    const answer = await pending;
    expect(answer.isError).toBe(true);
    expect(resultText(answer)).toBe("Error (cancelled): The eval call was cancelled and its cell was stopped.");
    expect(resultText(await call("kept"))).toBe("5");
    await kernelPid(call);
  });

  it("%pip installs a local wheel into the project's interpreter, and a newer one replaces the imported module without a reset", async () => {
    const { workdir, wheels } = wheelProject();
    await buildWheel(wheels, {
      name: "runbound_probe",
      version: "1.0",
      files: { "runbound_probe/__init__.py": "VALUE = 'one'\n" },
    });
    const { call } = session(workdir);
    const installed = resultText(
      await call(
        `%pip install --no-index --find-links ${wheels} runbound_probe==1.0\nimport runbound_probe\nrunbound_probe.VALUE`,
      ),
    );
    expect(installed).toMatch(/Successfully installed runbound[-_]probe-1\.0[\s\S]*'one'$/);
    await buildWheel(wheels, {
      name: "runbound_probe",
      version: "2.0",
      files: { "runbound_probe/__init__.py": "VALUE = 'two'\n" },
    });
    const upgraded = resultText(
      await call(
        `%pip install --no-index --find-links ${wheels} runbound_probe==2.0\nimport runbound_probe\nrunbound_probe.VALUE`,
      ),
    );
    expect(upgraded).toMatch(/'two'$/);
    await kernelPid(call);
  });

  it("%pip over a package whose compiled extension is imported says a reset is needed and leaves the loaded one alone", async () => {
    const { workdir, wheels } = wheelProject();
    await buildWheel(wheels, {
      name: "runbound_native",
      version: "1.0",
      files: { "runbound_native/__init__.py": "VALUE = 'one'\n" },
    });
    await buildWheel(wheels, {
      name: "runbound_native",
      version: "2.0",
      files: { "runbound_native/__init__.py": "VALUE = 'two'\n" },
    });
    const { call } = session(workdir);
    // A real extension module inside the package: the interpreter's own _json, loaded under the package.
    await call(
      `%pip install --no-index --find-links ${wheels} runbound_native==1.0\nimport os, shutil, _json, runbound_native\nshutil.copy(_json.__file__, os.path.join(os.path.dirname(runbound_native.__file__), os.path.basename(_json.__file__)))\nimport runbound_native._json`,
    );
    const answer = resultText(
      await call(
        `%pip install --no-index --find-links ${wheels} runbound_native==2.0\nimport runbound_native\nrunbound_native.VALUE`,
      ),
    );
    expect(answer).toContain(
      "Already imported with compiled extensions: `runbound_native`. Run the next cell with `reset: true` to use the new install; until then the old version stays loaded.",
    );
    expect(answer).toMatch(/'one'$/);
    expect(resultText(await call("import runbound_native\nrunbound_native.VALUE", { reset: true }))).toMatch(/'two'$/);
    await kernelPid(call);
  });

  it("dispose ends the kernel and the programs its cells started", async () => {
    const { call, factory } = session(fixtureProject(venv));
    await call("import subprocess\nchild = subprocess.Popen(['sleep', '300'])");
    const pid = await kernelPid(call);
    expect((await listProcessGroup(pid)).map((row) => row.command)).toContain("sleep");
    await factory.dispose();
    expect(await runningInGroup(pid)).toEqual([]);
  });

  it("refuses a description that is not 5 to 10 words, counting them", async () => {
    const { run } = session(fixtureProject(venv));
    const answer = await run.call("eval", { code: "1", description: "too short" });
    expect(answer.isError).toBe(true);
    expect(resultText(answer)).toBe(
      "Error (invalid_input): `description` has 2 words (`too short`); give 5 to 10 words saying what the cell does, e.g. `load the sales csv and plot totals`.",
    );
  });
});
