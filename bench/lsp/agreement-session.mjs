// The run the benchmark writes through, assembled as the CLI assembles it: the CLI's file tools (the
// real `edit`, from @runbound/tool-files, which the CLI loads) and tool-lsp's plugin with its write
// observer, the default resources attached for the workdir.
import { attachDefaultResources, createRun } from "@runbound/runner-adapter";
import { fileToolsPlugin } from "@runbound/tool-files";
import { resultText, Workdir } from "@runbound/tool-kit";
import { lspPlugin, LspSupervisor } from "@runbound/tool-lsp";
import { readGroupResidentMemoryKiB } from "@runbound/runtime-kit";

/** Open a run over `workdir`; language servers start on the first `lsp` call. */
export async function openSession(workdir) {
  const run = createRun({ plugins: [fileToolsPlugin, lspPlugin] });
  await run.attach(Workdir, { value: workdir });
  const failures = await attachDefaultResources(run, { workdir });
  if (failures.size > 0)
    throw new Error(`The run could not attach ${[...failures.keys()].join(", ")}: ${[...failures.values()].join(" ")}`);
  const serverPids = new Set();
  // Resident memory of each server's process group (the server and what it started, e.g. tsserver),
  // read after every call: the peak and the last reading per server.
  const memoryKiB = new Map();
  return {
    /** Call a tool: its text, whether it failed, and the call's own time (observers included). */
    async call(name, input) {
      const started = performance.now();
      const result = await run.call(name, input);
      const ms = performance.now() - started;
      for (const session of run.resource(LspSupervisor).running()) {
        if (session.pid === undefined) continue;
        serverPids.add(session.pid);
        const kib = await readGroupResidentMemoryKiB(session.pid).catch(() => undefined);
        if (kib === undefined) continue;
        const known = memoryKiB.get(session.spec.id);
        memoryKiB.set(session.spec.id, { peak: Math.max(known?.peak ?? 0, kib), last: kib });
      }
      return { text: resultText(result), isError: result.isError === true, ms };
    },
    /** Every language-server pid seen during the run. */
    serverPids: () => [...serverPids],
    /** Per server id, the peak and last resident memory of its process group (KiB). */
    memory: () => Object.fromEntries(memoryKiB),
    close: () => run.close(),
  };
}
