import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listDescendants, listProcessGroup } from "@runbound/runtime-kit/testing";
import { ToolError, type ToolResult } from "@runbound/tool-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startJavaScriptKernel } from "./javascript-kernel.js";
import type { CellOutput, CellRequest, CellStatus, Kernel } from "./kernel.js";

let workdir: string;
let kernel: Kernel;

const noTools = (name: string): Promise<ToolResult> => Promise.reject(new Error(`no tool ${name} in this test`));

function start(): Promise<Kernel> {
  return startJavaScriptKernel({ workdir, signal: new AbortController().signal });
}

async function run(
  code: string,
  options: Partial<Omit<CellRequest, "code">> = {},
  on = kernel,
): Promise<{ status: CellStatus; outputs: CellOutput[] }> {
  const outputs: CellOutput[] = [];
  const status = await on.execute({
    code,
    onOutput: (output) => {
      outputs.push(output);
      options.onOutput?.(output);
    },
    callTool: options.callTool ?? noTools,
  });
  return { status, outputs };
}

function echoed(outputs: CellOutput[]): string[] {
  return outputs.flatMap((output) => (output.type === "result" ? [output.text] : []));
}

function printed(outputs: CellOutput[]): string {
  return outputs.map((output) => (output.type === "stream" ? output.text : "")).join("");
}

beforeAll(async () => {
  workdir = await realpath(await mkdtemp(join(tmpdir(), "runbound-js-kernel-")));
  kernel = await start();
});

afterAll(async () => {
  await kernel?.dispose();
  await rm(workdir, { recursive: true, force: true });
});

describe("the JavaScript kernel's cells", () => {
  it("awaits at the top level and echoes the value of the last expression", async () => {
    const { status, outputs } = await run(
      "const waited = await new Promise((resolve) => setTimeout(() => resolve(20), 30));\nwaited + 22",
    );
    expect(status).toBe("ok");
    expect(echoed(outputs)).toEqual(["42"]);
  });

  it("lets a later cell declare a top-level let again and keeps the newest value", async () => {
    expect(echoed((await run("let x = 1; x")).outputs)).toEqual(["1"]);
    const again = await run("let x = 2; x");
    expect(again.status).toBe("ok");
    expect(echoed((await run("x")).outputs)).toEqual(["2"]);
  });

  it("lets a later cell declare a top-level const again", async () => {
    await run("const limit = 10;");
    const again = await run("const limit = 20; limit * 2");
    expect(again.status).toBe("ok");
    expect(echoed(again.outputs)).toEqual(["40"]);
  });

  it("lets a later cell declare a class again, and new instances use the new body", async () => {
    await run("class Greeter { greet() { return 'hello'; } }");
    const again = await run("class Greeter { greet() { return 'bonjour'; } }\nnew Greeter().greet()");
    expect(again.status).toBe("ok");
    expect(echoed(again.outputs)).toEqual(["'bonjour'"]);
  });

  it("echoes nothing for undefined and formats objects with util.inspect", async () => {
    expect(echoed((await run("let nothing = undefined; nothing")).outputs)).toEqual([]);
    expect(echoed((await run("({ list: [1, 2, 3], nested: { deep: true } })")).outputs)).toEqual([
      "{ list: [ 1, 2, 3 ], nested: { deep: true } }",
    ]);
    expect(echoed((await run("10n ** 20n")).outputs)).toEqual(["100000000000000000000n"]);
  });

  it("bounds the echo of a huge value and says how much was left out", async () => {
    const [text] = echoed(
      (await run("Array.from({ length: 90 }, (_, index) => 'row ' + index + ' ' + 'x'.repeat(400))")).outputs,
    );
    expect(text!.length).toBeLessThan(17_000);
    expect(text).toMatch(/… \(\d+ more characters\)$/);
  });

  it("reports a thrown error with the cell's frames and none of the kernel's", async () => {
    const { status, outputs } = await run("function explode() {\n  throw new RangeError('too far');\n}\nexplode()");
    expect(status).toBe("error");
    const error = outputs.find((output) => output.type === "error");
    expect(error).toMatchObject({ type: "error", name: "RangeError", message: "too far" });
    const traceback = (error as Extract<CellOutput, { type: "error" }>).traceback;
    expect(traceback).toMatch(/^RangeError: too far\n {4}at explode \(cell-\d+:2:9\)\n {4}at cell-\d+:4:1$/);
  });

  it("says where a syntax error is", async () => {
    const { status, outputs } = await run("let ok = 1;\nlet = = 2");
    expect(status).toBe("error");
    expect(outputs).toEqual([
      {
        type: "error",
        name: "SyntaxError",
        message: "Unexpected token '='",
        traceback: expect.stringMatching(/^SyntaxError: Unexpected token '='\n {4}at cell-\d+:2:7$/) as unknown,
      },
    ]);
  });

  it("shows the value of a throw that is not an Error (issue 22, item 6)", async () => {
    for (const [code, shown] of [
      ["throw 5", "Uncaught 5"],
      ["throw { code: 42 }", "Uncaught { code: 42 }"],
      ["await Promise.reject('just a string')", "Uncaught 'just a string'"],
    ]) {
      const { status, outputs } = await run(code!);
      expect(status).toBe("error");
      expect(outputs).toEqual([
        {
          type: "error",
          name: "Uncaught",
          message: shown!.slice("Uncaught ".length),
          traceback: expect.stringMatching(
            new RegExp(`^${shown!.replace(/[{}()']/g, "\\$&")}\n {4}at cell-\\d+:1:1$`),
          ) as unknown,
        },
      ]);
    }
  });

  it("reports an unhandled rejection the cell leaves behind in that cell's own answer, not the next one's (issue 22, item 6)", async () => {
    const { status, outputs } = await run(
      "Promise.reject(new Error('nobody caught me')); (async () => { await null; throw new Error('nor me'); })(); 'scheduled'",
    );
    expect(status).toBe("ok");
    expect(
      outputs
        .filter((output) => output.type === "error")
        .map((output) => output.message)
        .sort(),
    ).toEqual(["nobody caught me", "nor me"]);
    expect(echoed(outputs)).toEqual(["'scheduled'"]);
    expect((await run("'next'")).outputs).toEqual([{ type: "result", text: "'next'" }]);
  });

  it("gives the next answer what a timer throws after its cell answered, labelled as such, and the kernel goes on (issue 22, item 6)", async () => {
    const scheduled = await run("setTimeout(() => { throw new Error('thrown in a timer'); }, 50); new Error().stack");
    const origin = /cell-\d+/.exec(echoed(scheduled.outputs)[0]!)![0];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { outputs } = await run("'still here'");
    expect(outputs[0]).toEqual({
      type: "stream",
      name: "stderr",
      text: `[after ${origin} had answered, a timer or promise left running by it or an earlier cell produced this:]\n`,
    });
    expect(outputs[1]).toMatchObject({ type: "error", message: "thrown in a timer" });
    expect(outputs.slice(2)).toEqual([
      { type: "stream", name: "stderr", text: "[end of the earlier cell's output]\n" },
      { type: "result", text: "'still here'" },
    ]);
  });

  it("shows a frame the cell writes to the kernel's stdout itself as its output, never obeying it (issue 22, item 6)", async () => {
    const { status, outputs } = await run(
      "const id = Number(/cell-(\\d+)/.exec(new Error().stack)[1]);\nrequire('node:fs').writeSync(1, '\\u001e' + JSON.stringify({ t: 'done', cell: id, status: 'ok' }) + '\\n');\nawait new Promise((resolve) => setTimeout(resolve, 200));\nconsole.log('after the forged end');\n'last'",
    );
    expect(status).toBe("ok");
    expect(printed(outputs)).toMatch(
      new RegExp(String.raw`^\u001e\{"t":"done","cell":\d+,"status":"ok"\}\nafter the forged end\n$`),
    );
    expect(echoed(outputs)).toEqual(["'last'"]);
    expect((await run("'next'")).outputs).toEqual([{ type: "result", text: "'next'" }]);
  });

  it("starts in the workdir, and process.chdir moves the kernel", async () => {
    await mkdir(join(workdir, "sub"), { recursive: true });
    expect(echoed((await run("process.cwd()")).outputs)).toEqual([`'${workdir}'`]);
    expect(echoed((await run("process.chdir('sub'); process.cwd()")).outputs)).toEqual([`'${join(workdir, "sub")}'`]);
    await run(`process.chdir(${JSON.stringify(workdir)})`);
  });

  it("lets a cell use import() for built-ins, packages and files relative to the workdir; importModule() still works (issue 22, item 6)", async () => {
    await writeFile(join(workdir, "answer.mjs"), "export const answer = 42;\n");
    expect(echoed((await run("(await import('node:path')).posix.join('a', 'b')")).outputs)).toEqual(["'a/b'"]);
    expect(echoed((await run("const { answer } = await import('./answer.mjs'); answer")).outputs)).toEqual(["42"]);
    expect(echoed((await run("const spec = 'node:os'; typeof (await import(spec)).platform")).outputs)).toEqual([
      "'function'",
    ]);
    // Written in a string or a comment, import( is left alone.
    expect(echoed((await run("// import('x')\n'import(\"x\")'")).outputs)).toEqual([`'import("x")'`]);
    expect(echoed((await run("(await importModule('node:path')).sep")).outputs)).toEqual(["'/'"]);
    const missing = await run("await import('./no-such-module.mjs')");
    expect(missing.outputs[0]).toMatchObject({
      type: "error",
      message: expect.stringContaining("no-such-module.mjs") as unknown,
    });
  });
});

describe("the JavaScript kernel's output", () => {
  it("streams console output while the cell still runs, in the order it was written", async () => {
    const arrived: CellOutput[] = [];
    let arrivedBeforeTheCall: string | undefined;
    const { status, outputs } = await run(
      "console.log('before'); console.error('warning'); const answer = await tool('gate', {}); console.log('after'); answer.text",
      {
        onOutput: (output) => arrived.push(output),
        callTool: (name) => {
          // The cell waits for this answer: whatever arrived by now arrived while it ran.
          arrivedBeforeTheCall = printed(arrived);
          return Promise.resolve({ content: [{ type: "text", text: `opened ${name}` }] });
        },
      },
    );
    expect(status).toBe("ok");
    expect(arrivedBeforeTheCall).toBe("before\nwarning\n");
    expect(outputs).toEqual([
      { type: "stream", name: "stdout", text: "before\n" },
      { type: "stream", name: "stderr", text: "warning\n" },
      { type: "stream", name: "stdout", text: "after\n" },
      { type: "result", text: "'opened gate'" },
    ]);
  });

  it("shows what a program started with inherited stdio prints as the cell's stdout", async () => {
    const { outputs } = await run(
      "require('node:child_process').spawnSync('echo', ['from a program'], { stdio: 'inherit' }).status",
    );
    expect(outputs).toEqual([
      { type: "stream", name: "stdout", text: "from a program\n" },
      { type: "result", text: "0" },
    ]);
  });

  it("streams the output of a cell that spins synchronously", async () => {
    let interrupted: Promise<boolean> | undefined;
    const { outputs } = await run("for (let line = 1; line <= 3; line++) console.log('line', line); while (true) {}", {
      // Only output that left the kernel during the loop can trigger this interrupt.
      onOutput: (output) => {
        if (output.type === "stream" && output.text === "line 3\n") interrupted ??= kernel.interrupt(5_000);
      },
    });
    expect(await interrupted).toBe(true);
    expect(printed(outputs)).toBe("line 1\nline 2\nline 3\n");
  });
});

describe("the JavaScript kernel's tool() bridge", () => {
  it("rejects a call whose input cannot travel as JSON, and the kernel goes on", async () => {
    const { outputs } = await run("try { await tool('read', { size: 10n }); } catch (error) { error.name }");
    expect(echoed(outputs)).toEqual(["'TypeError'"]);
  });

  it("sends the call to callTool and resolves with the text, images and structured data it answered later", async () => {
    const calls: Array<[string, unknown]> = [];
    const { status, outputs } = await run(
      "const read = await tool('read', { path: 'notes.txt' }); [read.text, read.images.length, read.structured.lines]",
      {
        callTool: async (name, input) => {
          calls.push([name, input]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          return {
            content: [
              { type: "text", text: "line one" },
              { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
            ],
            structured: { lines: 1 },
          };
        },
      },
    );
    expect(status).toBe("ok");
    expect(calls).toEqual([["read", { path: "notes.txt" }]]);
    expect(echoed(outputs)).toEqual(["[ 'line one', 1, 1 ]"]);
  });

  it("rejects in the cell with a ToolError when the tool answers an error or the run refuses the call", async () => {
    const answered = await run(
      "try { await tool('read', { path: 'missing' }); } catch (error) { [error.name, error.message] }",
      {
        callTool: () =>
          Promise.resolve({ content: [{ type: "text", text: "`missing` does not exist." }], isError: true }),
      },
    );
    expect(echoed(answered.outputs)).toEqual(["[ 'ToolError', '`missing` does not exist.' ]"]);
    const refused = await run("try { await tool('write', {}); } catch (error) { [error.name, error.code] }", {
      callTool: () =>
        Promise.reject(new ToolError({ code: "denied", message: "The approval policy refused `write`." })),
    });
    expect(echoed(refused.outputs)).toEqual(["[ 'ToolError', 'denied' ]"]);
  });
});

describe("interrupting the JavaScript kernel", () => {
  // Every cell here prints before it hangs, so the interrupt sent on its first output finds it hanging.
  async function interruptOnceItPrints(
    code: string,
  ): Promise<{ status: CellStatus; survived: boolean | undefined; outputs: CellOutput[] }> {
    let interrupted: Promise<boolean> | undefined;
    const { status, outputs } = await run(code, {
      onOutput: () => {
        interrupted ??= kernel.interrupt(5_000);
      },
    });
    return { status, survived: await interrupted, outputs };
  }

  it("stops a runaway synchronous loop and keeps the variables defined before", async () => {
    await run("let kept = 'defined before the loop';");
    const { status, survived, outputs } = await interruptOnceItPrints("console.log('spinning'); while (true) {}");
    expect([status, survived]).toEqual(["interrupted", true]);
    expect(printed(outputs)).toBe("spinning\n");
    expect(echoed((await run("kept")).outputs)).toEqual(["'defined before the loop'"]);
  });

  it("stops a loop that spins after an await", async () => {
    const { status, survived } = await interruptOnceItPrints("await null; console.log('spinning'); for (;;) {}");
    expect([status, survived]).toEqual(["interrupted", true]);
    expect(echoed((await run("kept")).outputs)).toEqual(["'defined before the loop'"]);
  });

  it("gives up on an await that never settles, keeping the variables", async () => {
    const { status, survived } = await interruptOnceItPrints("console.log('waiting'); await new Promise(() => {})");
    expect([status, survived]).toEqual(["interrupted", true]);
    expect(echoed((await run("kept")).outputs)).toEqual(["'defined before the loop'"]);
  });

  it("stops a cell interrupted at once, before the kernel has started it (an interrupt on the first output of a flushed earlier cell)", async () => {
    await run("let keptAtOnce = 'defined before'");
    const spinning = run("while (true) {}");
    const survived = kernel.interrupt(5_000);
    expect([await spinning.then(({ status }) => status), await survived]).toEqual(["interrupted", true]);
    expect(echoed((await run("keptAtOnce")).outputs)).toEqual(["'defined before'"]);
  });

  it("stops a cell blocked waiting for a program it started, by interrupting that program", async () => {
    const { status, survived, outputs } = await interruptOnceItPrints(
      "console.log('sleeping'); require('node:child_process').execSync('sleep 120')",
    );
    expect([status, survived]).toEqual(["interrupted", true]);
    expect(printed(outputs)).toBe("sleeping\n");
    expect(echoed((await run("kept")).outputs)).toEqual(["'defined before the loop'"]);
  });

  it("stops a cell blocked on a program that ignores SIGINT, by ending that program harder (SIGTERM, then SIGKILL)", async () => {
    const { status, survived, outputs } = await interruptOnceItPrints(
      `console.log('stubborn'); require('node:child_process').execSync("trap '' INT; sleep 120")`,
    );
    expect([status, survived]).toEqual(["interrupted", true]);
    expect(printed(outputs)).toBe("stubborn\n");
    expect(echoed((await run("kept")).outputs)).toEqual(["'defined before the loop'"]);
  });

  it("rejects the pending tool() call of an interrupted cell, and answers true with no cell running", async () => {
    let interrupted: Promise<boolean> | undefined;
    const { status } = await run("globalThis.late = tool('slow', {}).catch((error) => error.name); await late", {
      callTool: () => {
        interrupted ??= kernel.interrupt(5_000);
        return new Promise(() => undefined);
      },
    });
    expect(status).toBe("interrupted");
    expect(await interrupted).toBe(true);
    expect(echoed((await run("await late")).outputs)).toEqual(["'InterruptedError'"]);
    expect(await kernel.interrupt(1_000)).toBe(true);
  });
});

describe("the JavaScript kernel's process", () => {
  it("reports a cell that calls process.exit as the kernel exiting with that code", async () => {
    const exiting = await start();
    const outcome = run("process.exit(3)", {}, exiting);
    await expect(outcome).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringContaining("exit code `3`") as unknown,
    });
    // Node's own farewell to the watchdog's inspector session is not the cell's last words.
    expect(await exiting.exited).toEqual({ code: 3, signal: null, stderrTail: "" });
    expect(await exiting.interrupt(100)).toBe(false);
    await exiting.dispose();
  });

  it("leaves nothing in the process table after dispose, even with a cell spinning", async () => {
    const disposed = await start();
    const pid = disposed.pid!;
    expect((await listProcessGroup(pid)).length).toBeGreaterThan(0);
    const spinning = run("while (true) {}", {}, disposed);
    await disposed.dispose();
    await expect(spinning).rejects.toMatchObject({ code: "cancelled" });
    expect(await listProcessGroup(pid)).toEqual([]);
  });

  it("says what the kernel wrote to stderr last when it exits", async () => {
    const exiting = await start();
    const outcome = run("require('node:fs').writeSync(2, 'disk quota exceeded\\n'); process.exit(4)", {}, exiting);
    await expect(outcome).rejects.toMatchObject({
      message: expect.stringMatching(/exit code `4`.*Its last stderr lines: disk quota exceeded$/s) as unknown,
    });
    await exiting.dispose();
  });

  it("gives the next cell what an earlier cell printed after it ended, labelled, at most 50 pieces and a count", async () => {
    const scheduled = await run(
      "setTimeout(() => { for (let piece = 1; piece <= 53; piece++) console.log('piece', piece); }, 0); new Error().stack",
    );
    const origin = /cell-\d+/.exec(echoed(scheduled.outputs)[0]!)![0];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { outputs } = await run("'next'");
    const texts = outputs.map((output) => (output.type === "stream" || output.type === "result" ? output.text : ""));
    expect(texts[0]).toBe(
      `[after ${origin} had answered, a timer or promise left running by it or an earlier cell produced this:]\n`,
    );
    expect(texts.slice(1, 51)).toEqual(Array.from({ length: 50 }, (_, index) => `piece ${index + 1}\n`));
    expect(texts.slice(51)).toEqual([
      "[3 more pieces of earlier output not kept]\n",
      "[end of the earlier cell's output]\n",
      "'next'",
    ]);
    expect(echoed((await run("'and after'")).outputs)).toEqual(["'and after'"]);
  });

  it("leaves the host's NODE_OPTIONS out of the kernel and names its Node in the label", async () => {
    const before = process.env["NODE_OPTIONS"];
    process.env["NODE_OPTIONS"] = "--max-old-space-size=4096";
    const clean = await start().finally(() => {
      if (before === undefined) delete process.env["NODE_OPTIONS"];
      else process.env["NODE_OPTIONS"] = before;
    });
    expect(echoed((await run("typeof process.env.NODE_OPTIONS", {}, clean)).outputs)).toEqual(["'undefined'"]);
    expect(clean.label).toContain(process.version);
    await clean.dispose();
  });

  it("stops a start cancelled while the process spawns, and one that runs out of time, leaving nothing behind", async () => {
    const children = async (): Promise<number[]> => (await listDescendants(process.pid)).map((row) => row.pid).sort();
    const before = await children();
    const controller = new AbortController();
    const cancelled = startJavaScriptKernel({ workdir, signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "cancelled" });
    await expect(
      startJavaScriptKernel({ workdir, signal: new AbortController().signal, startTimeoutMs: 1 }),
    ).rejects.toMatchObject({ code: "timeout", message: expect.stringContaining("within 1 ms") as unknown });
    expect(await children()).toEqual(before);
  });

  it("does not start when the start is already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(startJavaScriptKernel({ workdir, signal: controller.signal })).rejects.toMatchObject({
      code: "cancelled",
    });
  });
});
