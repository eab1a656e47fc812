/**
 * The debugpy adapter, started through a few lines that make its sockets acknowledge at once. pydevd
 * (in the debuggee) writes each message as two sends, header then body, on a socket without
 * TCP_NODELAY: the body waits for the header's ACK, which the adapter's kernel delays by up to 40 ms
 * (delayed ACK), so every request cost ~44 ms (measured: threads, stack, scopes, variables, evaluate,
 * and each of a step's requests). TCP_QUICKACK, set again after every read because the kernel clears
 * it, makes the adapter acknowledge at once; the debuggee and its own sockets are left as they are.
 * Where the option does not exist (not Linux), the adapter runs unchanged.
 */
export const DEBUGPY_ADAPTER_ARGS: readonly string[] = [
  "-c",
  [
    "import runpy, socket",
    "if hasattr(socket, 'TCP_QUICKACK'):",
    "    def _acking(read):",
    "        def wrapper(self, *args, **kwargs):",
    "            result = read(self, *args, **kwargs)",
    "            try:",
    "                self.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)",
    "            except OSError:",
    "                pass",
    "            return result",
    "        return wrapper",
    "    socket.socket.recv = _acking(socket.socket.recv)",
    "    socket.socket.recv_into = _acking(socket.socket.recv_into)",
    "runpy.run_module('debugpy.adapter', run_name='__main__', alter_sys=True)",
  ].join("\n"),
];
