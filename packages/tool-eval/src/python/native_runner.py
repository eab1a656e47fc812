"""The native CPython kernel's runner (stdlib only): runbound_cell over line-delimited JSON.

The parent's pipes arrive as fd 0 and fd 1; the runner moves them to fd 3 (requests in) and fd 4
(frames out), which no child inherits, then points fd 0 at /dev/null and fd 1 at a pipe it drains
itself. So C-level prints and the output of programs a cell starts become stream output.

A cell's own code runs in this process and can still write to fd 4. So the parent's first line gives
a per-kernel secret, and every frame starts with it and a space; what arrives without it is shown as
the cell's output and never obeyed, so a cell cannot end itself early or fake a tool call by writing
to the channel. The secret is never in the cell's namespace, environment or arguments, but code that
searches this process's memory can find it: the native kernel runs with the user's rights and is not
a sandbox.

In:  {"type": "channel", "secret": str}   (first line, before anything else)
     {"type": "execute", "code": str}
     {"type": "tool_result", "id": int, "result": ToolResult}
Out: {"type": "ready", "version": str, "implementation": str, "executable": str}
     {"type": "output", "output": CellOutput}
     {"type": "tool_call", "id": int, "name": str, "input": any}
     {"type": "done", "status": "ok" | "error" | "interrupted"}
"""

import codecs
import fcntl
import importlib.util
import json
import os
import platform
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import threading


def _load_cell_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runbound_cell.py")
    spec = importlib.util.spec_from_file_location("runbound_cell", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["runbound_cell"] = module
    spec.loader.exec_module(module)
    return module


class Channel:
    """The two private descriptors: one JSON object a line each way."""

    def __init__(self):
        os.dup2(0, 3)
        os.dup2(1, 4)
        os.set_inheritable(3, False)
        os.set_inheritable(4, False)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        self._reader = os.fdopen(3, "rb", buffering=65536)
        self._lock = threading.Lock()
        self._held = b""
        hello = self.receive()
        if hello.get("type") != "channel" or not isinstance(hello.get("secret"), str):
            raise SystemExit("runbound: the first line on the channel must give its secret")
        self._marker = hello["secret"].encode("ascii") + b" "

    def send(self, message, held=False):
        """Write one frame; a `held` one waits for the next frame and goes out in the same write."""
        # allow_nan=False: the parent's JSON.parse refuses NaN; tool() has already checked its input.
        encoded = self._marker + json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8", "surrogatepass") + b"\n"
        if held:
            with self._lock:
                self._held += encoded
            return
        self._write(encoded)

    def _write(self, encoded):
        # An interrupt landing between two partial writes would leave half a frame on the channel.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with self._lock:
                line = memoryview(self._held + encoded)
                self._held = b""
                while line:
                    line = line[os.write(4, line) :]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def receive(self):
        line = self._reader.readline()
        if not line:
            # The parent is gone (its end of the pipe closed): nothing is left to serve.
            os._exit(0)
        return json.loads(line)


class DescriptorOneDrain:
    """fd 1 becomes a pipe; whatever is written to it (C code, child programs) is forwarded as stdout."""

    def __init__(self, forward):
        self._forward = forward
        read_end, write_end = os.pipe()
        os.dup2(write_end, 1)
        os.close(write_end)
        self._read_end = read_end
        # Non-blocking: after `sync` emptied the pipe, the drain woken by the same bytes must not block
        # in read() while it holds the lock.
        os.set_blocking(read_end, False)
        # The drain reads only while holding this lock, so a byte is either still in the pipe or
        # already forwarded: `sync` can tell "nothing pending" without a round trip through the thread.
        self._lock = threading.Lock()
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._flush_c = _c_stdio_flush()
        threading.Thread(target=self._drain, name="runbound-fd1", daemon=True).start()

    def _drain(self):
        while True:
            select.select([self._read_end], [], [])
            with self._lock:
                try:
                    chunk = os.read(self._read_end, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    return
                text = self._decoder.decode(chunk)
                if text:
                    self._forward(text)

    def _pending(self):
        return struct.unpack("i", fcntl.ioctl(self._read_end, termios.FIONREAD, b"\0\0\0\0"))[0]

    def sync(self):
        """Forward everything written to fd 1 so far, before the cell's end is announced."""
        self._flush_c()
        with self._lock:
            while self._pending() > 0:
                text = self._decoder.decode(os.read(self._read_end, 65536))
                if text:
                    self._forward(text)


def _c_stdio_flush():
    """C code's stdout buffer, flushed before a cell ends (libc's fflush(NULL)); a no-op where unavailable."""
    try:
        import ctypes

        flush = ctypes.CDLL(None).fflush
        return lambda: flush(None)
    except (ImportError, OSError, AttributeError):
        return lambda: None


def _stream(process):
    for raw in iter(process.stdout.readline, b""):
        sys.stdout.write(raw.decode("utf-8", "replace"))
    sys.stdout.flush()
    return process.wait()


def _run_streaming(arguments, **options):
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **options)
    try:
        return _stream(process)
    except BaseException:
        # Interrupted while the program runs: it must not outlive the cell.
        process.kill()
        process.wait()
        raise


class NativeHooks:
    """What the magics do in a real CPython: run programs and this interpreter's pip."""

    def __init__(self, cell_module):
        self._cell = cell_module

    def pip(self, args):
        arguments = shlex.split(args)
        environment = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
        output = []
        process = subprocess.Popen([sys.executable, "-m", "pip", *arguments], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment)
        try:
            for raw in iter(process.stdout.readline, b""):
                text = raw.decode("utf-8", "replace")
                output.append(text)
                sys.stdout.write(text)
            status = process.wait()
        except BaseException:
            process.kill()
            process.wait()
            raise
        if status != 0:
            print(f"[pip exited with status {status}]", file=sys.stderr)
            if os.environ.get("RUNBOUND_EVAL_OFFLINE") == "1":
                print(
                    "[this kernel runs in a sandbox without the network, so pip can install only from files in the "
                    "workdir (`%pip install ./wheels/x.whl`); to let it reach a package index, the host allows the "
                    "network (the runbound CLI: --allow-network)]",
                    file=sys.stderr,
                )
            return
        installed = []
        for line in output:
            if line.startswith("Successfully installed "):
                # "name-1.0 other-name-2.3": the version is what follows the last dash.
                installed.extend(re.sub(r"-[^-]+$", "", item) for item in line.split()[2:])
        if installed:
            note = self._cell.refresh_after_install(installed)
            if note:
                print(note, file=sys.stderr)

    def shell(self, command):
        return _run_streaming(command, shell=True)

    def getoutput(self, command):
        return subprocess.run(command, shell=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace")

    def cd(self, path):
        os.chdir(os.path.expanduser(path))
        print(os.getcwd())


def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel = Channel()
    cell = _load_cell_module()
    # A notebook imports from its working directory; a script would see this runner's folder instead.
    sys.path[0] = ""
    drain = DescriptorOneDrain(lambda text: channel.send({"type": "output", "output": {"type": "stream", "name": "stdout", "text": text}}))
    next_call = [0]

    def call_tool(name, tool_input):
        next_call[0] += 1
        call_id = next_call[0]
        channel.send({"type": "tool_call", "id": call_id, "name": name, "input": tool_input})
        while True:
            message = channel.receive()
            # A reply to a call an interrupt abandoned is dropped; only this call's reply ends the wait.
            if message.get("type") == "tool_result" and message.get("id") == call_id:
                return message["result"]

    executor = cell.CellExecutor(
        # The echoed value is a cell's last output: sent with its "done", the parent wakes once for both.
        lambda output: channel.send({"type": "output", "output": output}, held=output.get("type") == "result"),
        call_tool,
        hooks=NativeHooks(cell),
        internal_files=[os.path.abspath(__file__)],
    )
    channel.send({"type": "ready", "version": platform.python_version(), "implementation": platform.python_implementation(), "executable": sys.executable})
    while True:
        message = channel.receive()
        if message.get("type") != "execute":
            continue
        # SIGINT interrupts only a running cell; one arriving between cells must not kill the kernel.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            status = executor.run(message["code"])
        except KeyboardInterrupt:
            status = "interrupted"
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        drain.sync()
        channel.send({"type": "done", "status": status})


if __name__ == "__main__":
    main()
