import { Worker } from "node:worker_threads";

// Node's own ESM resolver, run from a parent URL of our choosing. Node 20 to 24 honour the parent of
// `import.meta.resolve(specifier, parent)` only under --experimental-import-meta-resolve, a flag a
// worker may take for itself; `createRequire(…).resolve` would apply the `require` condition instead
// and miss a package whose exports offer only `import` (issue 12).
const resolverSource = `import { parentPort, workerData } from "node:worker_threads";
try {
  parentPort.postMessage({ url: import.meta.resolve(workerData.specifier, workerData.parentUrl) });
} catch (error) {
  parentPort.postMessage({ code: error?.code, message: String(error?.message ?? error) });
}`;

interface ResolverAnswer {
  url?: string;
  code?: string;
  message?: string;
}

/**
 * Resolve `specifier` exactly as `import(specifier)` in a module at `parentUrl` would (its
 * node_modules, the `import` condition of `exports`). Rejects with Node's error (and its `code`,
 * e.g. `ERR_MODULE_NOT_FOUND`) when that import would fail to resolve.
 */
export function resolveAsImport(specifier: string, parentUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(resolverSource)}`), {
      execArgv: ["--experimental-import-meta-resolve"],
      workerData: { specifier, parentUrl },
      stdout: true,
      stderr: true,
    });
    worker.once("message", (answer: ResolverAnswer) => {
      void worker.terminate();
      if (answer.url !== undefined) resolve(answer.url);
      else reject(Object.assign(new Error(answer.message), { code: answer.code }));
    });
    worker.once("error", reject);
    worker.once("exit", (code) =>
      reject(new Error(`The resolver for \`${specifier}\` exited with code ${code} before it answered.`)),
    );
  });
}
