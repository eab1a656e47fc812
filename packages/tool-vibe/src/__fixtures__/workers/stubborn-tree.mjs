// A worker that ignores SIGTERM and starts a grandchild that ignores it too; it prints both pids and
// then never ends by itself. Only a SIGKILL of the whole process group removes it.
import { spawn } from "node:child_process";

process.on("SIGTERM", () => undefined);
const grandchild = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => undefined); setInterval(() => undefined, 60_000);"], { stdio: "ignore" });
grandchild.on("spawn", () => process.stdout.write(`worker ${process.pid} grandchild ${grandchild.pid}\n`));
setInterval(() => undefined, 60_000);
