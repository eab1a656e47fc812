import { createServer, type Socket } from "node:net";
import { spawnOwnedProcess, type OwnedProcess } from "@runbound/process-kit";
import type { AdapterTransport } from "./adapter-table.js";
import { DapConnection } from "./dap-connection.js";

/** A running adapter and the DAP connection to it. */
export interface AdapterConnection {
  /** The adapter process (its own process group). */
  process: OwnedProcess;
  /** The DAP connection. */
  connection: DapConnection;
  /** Ends the client side: closes stdin (debugpy exits only on stdin EOF, debugpy#672) or the socket. */
  hangUp(): void;
}

/** Settings of {@link connectAdapter}. */
export interface ConnectSettings {
  transport: AdapterTransport;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long a dial-in adapter may take to connect. */
  connectTimeoutMs: number;
  /** Where the adapter's own stdout goes when DAP does not use it (dlv 1.20 writes the program's output there). */
  onAdapterStdout(text: string): void;
}

/** Why an adapter could not be reached: it did not start, exited, or never dialled in. */
export class AdapterStartFailed extends Error {
  constructor(
    message: string,
    readonly stderr: readonly string[],
  ) {
    super(message);
    this.name = "AdapterStartFailed";
  }
}

async function dialIn(settings: ConnectSettings): Promise<AdapterConnection> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // An ephemeral port on loopback that we hold: no port race, no parsing of "listening at" lines.
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const args = settings.args.map((argument) => argument.replace("{address}", `127.0.0.1:${port}`));
  let adapter: OwnedProcess;
  try {
    adapter = await spawnOwnedProcess({ command: settings.command, args, cwd: settings.cwd, env: settings.env });
  } catch (error) {
    server.close();
    throw error;
  }
  adapter.stdout.setEncoding("utf8");
  adapter.stdout.on("data", (text: string) => settings.onAdapterStdout(text));
  let timer: NodeJS.Timeout | undefined;
  try {
    const socket = await Promise.race([
      new Promise<Socket>((resolve) => server.once("connection", resolve)),
      adapter.exit.then((exit) => {
        throw new AdapterStartFailed(`\`${settings.command}\` exited (${exit.signal ?? `code ${exit.code}`}) before it connected.`, adapter.stderrTail());
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AdapterStartFailed(`\`${settings.command}\` did not connect within ${settings.connectTimeoutMs} ms.`, adapter.stderrTail())), settings.connectTimeoutMs);
      }),
    ]);
    socket.setNoDelay(true);
    return { process: adapter, connection: new DapConnection(socket, socket), hangUp: () => socket.destroy() };
  } catch (error) {
    await adapter.stop({ graceMs: 500 });
    throw error;
  } finally {
    clearTimeout(timer);
    server.close();
  }
}

/** Start an adapter and connect to it over its stdio or by letting it dial a socket we listen on. */
export async function connectAdapter(settings: ConnectSettings): Promise<AdapterConnection> {
  if (settings.transport === "dial-in") return dialIn(settings);
  const adapter = await spawnOwnedProcess({ command: settings.command, args: [...settings.args], cwd: settings.cwd, env: settings.env });
  return { process: adapter, connection: new DapConnection(adapter.stdout, adapter.stdin), hangUp: () => adapter.stdin.end() };
}
