"""runbound_pyodide: what the Pyodide kernel adds around runbound_cell inside its worker.

The worker registers the JavaScript module ``runbound_kernel`` (emit, call_tool, sleep, install,
packages) before importing this one. Everything that needs the host goes through it; nothing here
starts a program or touches the network.
"""

import asyncio
import errno
import json
import os
import random
import shlex
import time

import runbound_cell
import runbound_kernel


# A kernel restored from a memory snapshot would otherwise repeat the snapshot's random sequence.
# (The str hash seed stays the snapshot's: it is fixed when the interpreter starts.)
random.seed()


def _refuse_programs(*args, **kwargs):
    # Under Pyodide, os.system reaches Emscripten's system(), which calls Node's child_process: the
    # permission model denies that, and the denial is a fatal error that takes the interpreter down.
    raise OSError(errno.ENOTSUP, "This Python kernel runs isolated in Pyodide and cannot run programs; use the project's native Python kernel for that.")


for _name in ("system", "popen", "posix_spawn", "posix_spawnp", "fork", "forkpty", "spawnv", "spawnve", "spawnl", "spawnle",
              "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe"):
    if hasattr(os, _name):
        setattr(os, _name, _refuse_programs)


def _sleep(seconds):
    """time.sleep that an interrupt stops: Pyodide's own sleep blocks the thread without checking."""
    seconds = float(seconds)
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    if runbound_kernel.sleep(seconds):
        raise KeyboardInterrupt


time.sleep = _sleep


class PyodideHooks(runbound_cell.Hooks):
    """`%pip` installs wheels from the kernel's offline package directory; programs cannot run."""

    def pip(self, args):
        words = shlex.split(args)
        command = words[0] if words else ""
        if command == "install":
            requirements = [word for word in words[1:] if not word.startswith("-")]
            if not requirements:
                raise ValueError("`%pip install` needs at least one package name, e.g. `%pip install attrs`.")
            installed = json.loads(runbound_kernel.install(json.dumps(requirements)))
            if installed:
                print("Installed " + ", ".join(f"{name} {version}" for name, version in installed) + " from the offline package directory.")
            else:
                print("Already installed: " + ", ".join(requirements) + ".")
            note = runbound_cell.refresh_after_install([name for name, _ in installed])
            if note:
                print(note)
            return
        if command == "list":
            print(runbound_kernel.packages())
            return
        raise ValueError(f"`%pip {command}` is not supported in the Pyodide kernel; it can `install` wheels from its offline package directory and `list` them.")

    def shell(self, command):
        raise RuntimeError(f"`!{command}` cannot run: this Python kernel runs isolated in Pyodide, which cannot run programs.")

    def getoutput(self, command):
        return self.shell(command)


def _emit(frame):
    runbound_kernel.emit(json.dumps(frame))


def _call_tool(name, input):
    answer = runbound_kernel.call_tool(name, json.dumps(input))
    if answer is None:
        raise KeyboardInterrupt
    return json.loads(answer)


# This module's own frames (time.sleep, the hooks, the bridge) are the kernel's, not the cell's.
executor = runbound_cell.CellExecutor(_emit, _call_tool, PyodideHooks(), internal_files=[__file__])


_cell_task = None


async def run_cell(code):
    """Run one cell; an interrupt that lands outside the executor's own handler is still an answer."""
    global _cell_task
    _cell_task = asyncio.current_task()
    try:
        return await executor.run_async(code)
    except BaseException:  # noqa: BLE001 — a KeyboardInterrupt escaping a task would kill the worker
        return "interrupted"
    finally:
        _cell_task = None


def interrupt_await():
    """Raise KeyboardInterrupt where the running cell awaits (the interrupt flag is only read while Python runs)."""
    waiter = getattr(_cell_task, "_fut_waiter", None) if _cell_task is not None else None
    if waiter is not None and not waiter.done():
        waiter.set_exception(KeyboardInterrupt())
