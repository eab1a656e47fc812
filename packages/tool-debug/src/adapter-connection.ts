import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { hostPlacement, spawnOwnedProcess, type OwnedProcess, type Placement } from "@runbound/runtime-kit";
import type { AdapterTransport } from "./adapter-table.js";
import { DapConnection } from "./dap-connection.js";

/** A running adapter and the DAP connection to it. */
export interface AdapterConnection {
  /** The adapter process (its own process group); none when we connected to a listening debuggee. */
  process?: OwnedProcess;
  /** The DAP connection. */
  connection: DapConnection;
  /** Ends the client side: closes stdin (debugpy exits only on stdin EOF, debugpy#672) or the socket. */
  hangUp(): void;
}

/** Settings of {@link connectAdapter}. */
export interface ConnectSettings {
  transport: AdapterTransport;
  /** Connect to a debuggee's own DAP endpoint on this loopback port instead of starting the adapter (debugpy --listen). */
  connectPort?: number;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the adapter runs; default the host. */
  placement?: Placement;
  /** In a sandbox: host paths the adapter reads, folders it writes, and the variables of `env` it needs. */
  readOnlyPaths?: readonly string[];
  writablePaths?: readonly string[];
  ownEnv?: readonly string[];
  /**
   * A folder of this session's, written by the adapter in a sandbox: a dial-in adapter there dials a
   * unix socket in it, because a sandbox without the network cannot reach the host's loopback.
   */
  sessionDirectory: string;
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

/** Where a dial-in adapter dials: a socket we hold, so there is no port race and no "listening at" line to parse. */
async function listenForAdapter(settings: ConnectSettings): Promise<{ server: Server; address: string }> {
  const server = createServer();
  const socketPath = join(settings.sessionDirectory, "dap.sock");
  const sandboxed = (settings.placement ?? hostPlacement).kind === "sandbox";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (sandboxed) server.listen(socketPath, () => resolve());
    else server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { server, address: sandboxed ? `unix:${socketPath}` : `127.0.0.1:${port}` };
}

function spawnAdapter(settings: ConnectSettings, args: readonly string[]): Promise<OwnedProcess> {
  return spawnOwnedProcess({
    command: settings.command,
    args,
    cwd: settings.cwd,
    env: settings.env,
    ...(settings.placement === undefined ? {} : { placement: settings.placement }),
    ...(settings.readOnlyPaths === undefined ? {} : { readOnlyPaths: settings.readOnlyPaths }),
    ...(settings.writablePaths === undefined ? {} : { writablePaths: settings.writablePaths }),
    ...(settings.ownEnv === undefined ? {} : { ownEnv: settings.ownEnv }),
  });
}

async function dialIn(settings: ConnectSettings): Promise<AdapterConnection> {
  const { server, address } = await listenForAdapter(settings);
  const args = settings.args.map((argument) => argument.replace("{address}", address));
  let adapter: OwnedProcess;
  try {
    adapter = await spawnAdapter(settings, args);
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
        throw new AdapterStartFailed(
          `\`${settings.command}\` exited (${exit.signal ?? `code ${exit.code}`}) before it connected.`,
          adapter.stderrTail(),
        );
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new AdapterStartFailed(
                `\`${settings.command}\` did not connect within ${settings.connectTimeoutMs} ms${address.startsWith("unix:") ? ` (in the sandbox it dials the unix socket ${address.slice("unix:".length)}; a dlv that cannot dial one needs replacing with a current one: \`go install github.com/go-delve/delve/cmd/dlv@latest\`)` : ""}.`,
                adapter.stderrTail(),
              ),
            ),
          settings.connectTimeoutMs,
        );
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

// `python -m debugpy --listen PORT` runs its own adapter behind the port: a client talks DAP to it
// directly (as VS Code's "connect" attach does); a second adapter in between would wait forever.
async function connectToPort(port: number, timeoutMs: number): Promise<AdapterConnection> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const attempt = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      attempt.destroy();
      reject(new AdapterStartFailed(`Nothing accepted a connection on 127.0.0.1:${port} within ${timeoutMs} ms.`, []));
    }, timeoutMs);
    attempt.once("connect", () => {
      clearTimeout(timer);
      resolve(attempt);
    });
    attempt.once("error", (error) => {
      clearTimeout(timer);
      reject(
        new AdapterStartFailed(
          `Could not connect to 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code ?? error.message}); start the program with \`python -m debugpy --listen 127.0.0.1:${port} …\` first.`,
          [],
        ),
      );
    });
  });
  socket.setNoDelay(true);
  return { connection: new DapConnection(socket, socket), hangUp: () => socket.destroy() };
}

/** Start an adapter and connect to it over its stdio or by letting it dial a socket we listen on. */
export async function connectAdapter(settings: ConnectSettings): Promise<AdapterConnection> {
  if (settings.connectPort !== undefined) return connectToPort(settings.connectPort, settings.connectTimeoutMs);
  if (settings.transport === "dial-in") return dialIn(settings);
  const adapter = await spawnAdapter(settings, settings.args);
  return {
    process: adapter,
    connection: new DapConnection(adapter.stdout, adapter.stdin),
    hangUp: () => adapter.stdin.end(),
  };
}
