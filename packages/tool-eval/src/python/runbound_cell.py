"""runbound_cell: the cell executor shared by every Python kernel of runbound (stdlib only).

The native CPython runner and the Pyodide kernel load this same module; only the transport and the
platform hooks differ, and both are injected.

Stable entry points
-------------------
``CellExecutor(emit, call_tool, hooks=None, limits=None, internal_files=())``
    ``emit(frame: dict)`` receives every output as soon as the cell produces it; a frame is one
    ``CellOutput`` of ``packages/tool-eval/src/kernel.ts``::

        {"type": "stream", "name": "stdout" | "stderr", "text": str}
        {"type": "result", "text": str}
        {"type": "display", "mimeType": "text/plain" | "text/markdown", "text": str}
        {"type": "image", "mimeType": "image/png" | "image/jpeg", "data": base64 str}
        {"type": "error", "name": str, "message": str, "traceback": str}

    ``call_tool(name: str, input) -> dict`` is the ``tool()`` bridge; it blocks until the run
    answers and returns the ``ToolResult`` as JSON (``{"content": [...], "isError"?: bool}``).
    ``internal_files`` names the host's own source files, whose frames tracebacks leave out too.

``CellExecutor.run(code) -> "ok" | "error" | "interrupted"``
    Runs one cell synchronously (a cell using top-level ``await`` runs on the executor's own event
    loop). ``run_async(code)`` is the same as a coroutine, for a host that already runs a loop.
    Standard output and error are replaced by forwarding streams only while a cell runs.

``CellExecutor.namespace``
    The cell's globals: they persist from cell to cell.

``Hooks``
    Platform hooks the magic rewriter's calls end in; subclass it and override what the platform
    can do. ``pip(args: str)``, ``shell(command: str) -> int`` (streams the output, returns the exit
    status), ``getoutput(command: str) -> str``, ``cd(path: str)``. The base class can only ``cd``.

``refresh_after_install(distributions) -> str``
    After installing distributions: invalidates import caches, drops their already-imported
    pure-Python modules from ``sys.modules`` and says which compiled ones need a ``reset``.

``Limits``
    Figure count and size caps per cell.

In a cell: ``display(*objects)``, ``tool(name, input)`` (returns a ``ToolText``: the text, with
``.images`` and ``.structured``; raises ``ToolCallError`` when the tool failed), and ``__runbound__``,
the object the rewritten magics call (``pip``, ``cd``, ``shell``, ``getoutput``, ``bash``, ``timeit``,
``unsupported``).
"""

import ast
import base64
import io
import linecache
import math
import os
import re
import shlex
import sys
import threading
import time
import traceback
import types
import warnings

__all__ = ["CellExecutor", "Hooks", "Limits", "ToolText", "ToolCallError", "refresh_after_install"]

_THIS_FILE = os.path.normcase(os.path.abspath(__file__)) if "__file__" in globals() else "<runbound_cell>"


class Limits:
    """What one cell may return besides text."""

    def __init__(self, max_figures=4, max_image_bytes=400_000, max_repr_chars=50_000, table_rows=20):
        self.max_figures = max_figures
        self.max_image_bytes = max_image_bytes
        self.max_repr_chars = max_repr_chars
        self.table_rows = table_rows


class ToolCallError(Exception):
    """The tool called from the cell answered with an error; the message is its text."""


class ToolText(str):
    """A tool's answer: its text, plus the images and the structured data it returned."""

    images = ()
    structured = None


class Hooks:
    """What the magics can do on this platform. The base only changes directory."""

    def pip(self, args):
        raise RuntimeError("`%pip` is not available in this kernel.")

    def shell(self, command):
        raise RuntimeError(f"`!{command}` cannot run: this kernel cannot run programs.")

    def getoutput(self, command):
        raise RuntimeError(f"`!{command}` cannot run: this kernel cannot run programs.")

    def cd(self, path):
        os.chdir(os.path.expanduser(path))
        print(os.getcwd())


class _ForwardingStream(io.TextIOBase):
    """A text stream whose writes become stream frames: whole lines at once, a partial line after a pause."""

    def __init__(self, name, emit, encoding="utf-8"):
        self._name = name
        self._emit = emit
        self._buffer = []
        self._size = 0
        self._pending_since = 0.0
        self._lock = threading.Lock()
        self._encoding = encoding

    @property
    def encoding(self):
        return self._encoding

    @property
    def name(self):
        return f"<{self._name}>"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not text:
            return 0
        with self._lock:
            if not self._buffer:
                self._pending_since = time.monotonic()
            self._buffer.append(text)
            self._size += len(text)
            # Whole lines go out at once so the inactivity clock sees a chatty cell; a partial line
            # waits for its end, a flush, 8 KiB, or 0.2 s, so `print(x, end="")` is not one frame per call.
            if "\n" in text or self._size >= 8192 or time.monotonic() - self._pending_since > 0.2:
                self._flush_locked()
        return len(text)

    def flush(self):
        with self._lock:
            self._flush_locked()

    def _flush_locked(self):
        if not self._buffer:
            return
        text = "".join(self._buffer)
        self._buffer = []
        self._size = 0
        self._emit({"type": "stream", "name": self._name, "text": text})


# What a JSON number carries exactly on the other side of the bridge (a JavaScript double).
_MAX_EXACT_INTEGER = 2**53 - 1
_MAX_INPUT_DEPTH = 100


def _lone_surrogate(text):
    """The first lone surrogate of `text` as (code point, index), or None when it is well-formed."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as error:
        return ord(text[error.start]), error.start


def _surrogate_problem(text):
    found = _lone_surrogate(text)
    if found is None:
        return None
    code, index = found
    return f"a string with a lone surrogate (U+{code:04X} at index {index}), which is not valid Unicode; remove it or replace it, e.g. `text.encode('utf-8', 'replace').decode()`"


def _key_text(key):
    # Escapes lone surrogates too, so the message itself stays valid Unicode.
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"').encode("utf-8", "backslashreplace").decode("utf-8") + '"'


def _shown_key(key):
    if key is None or isinstance(key, (bool, float)) or (isinstance(key, int) and key.bit_length() < 64):
        return f"{type(key).__name__} ({key!r})"
    return type(key).__name__


class _InputProblem(Exception):
    def __init__(self, kind, where, problem):
        super().__init__(problem)
        self.kind = kind
        self.where = where


def _plain_json(value, where, depth, open_containers):
    """A copy of `value` made of the types JSON carries (dict with str keys, list, str, int, float,
    bool, None); anything else raises `_InputProblem` naming where it is and what to pass instead.
    Reads only plain data: no repr(), str() or other method of the cell's objects is called, so an
    object whose __repr__ fails is still named by its type."""
    if value is None or value is True or value is False:
        return value
    kind = type(value)
    if isinstance(value, str):
        problem = _surrogate_problem(value)
        if problem is not None:
            raise _InputProblem(ValueError, where, f"it is {problem}")
        return str.__str__(value)
    if isinstance(value, int):
        plain = int.__index__(value)
        if abs(plain) > _MAX_EXACT_INTEGER:
            raise _InputProblem(ValueError, where, f"it is an integer of {plain.bit_length()} bits, beyond what a JSON number carries exactly (±(2**53 - 1)); pass it as a string")
        return plain
    if isinstance(value, float):
        plain = float.__float__(value)
        if not math.isfinite(plain):
            raise _InputProblem(ValueError, where, f"it is {float.__repr__(plain)}, which JSON cannot carry; pass a finite number, or None for no value")
        return plain
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise _InputProblem(TypeError, where, "it is bytes; decode it to a str (e.g. `data.decode()`), or base64-encode binary data")
    if isinstance(value, (set, frozenset)):
        raise _InputProblem(TypeError, where, "it is a set; pass a list (e.g. `sorted(values)`)")
    if not isinstance(value, (dict, list, tuple)):
        raise _InputProblem(TypeError, where, f"it is a {kind.__name__}, which JSON cannot carry; pass dict, list, str, int, float, bool or None (convert it first, e.g. `str(value)`, `value.item()` or `value.tolist()`)")
    if id(value) in open_containers:
        raise _InputProblem(ValueError, where, "it contains itself; pass a structure without cycles")
    if depth >= _MAX_INPUT_DEPTH:
        raise _InputProblem(ValueError, where, f"it nests deeper than {_MAX_INPUT_DEPTH} levels; flatten it")
    open_containers.add(id(value))
    try:
        if isinstance(value, dict):
            plain = {}
            for key, item in dict.items(value):
                if not isinstance(key, str):
                    raise _InputProblem(TypeError, where, f"has a key of type {_shown_key(key)}; keys must be strings: convert them with str()")
                problem = _surrogate_problem(key)
                if problem is not None:
                    raise _InputProblem(ValueError, where, f"has a key that is {problem}")
                plain[str.__str__(key)] = _plain_json(item, f"{where}[{_key_text(key)}]", depth + 1, open_containers)
            return plain
        return [_plain_json(item, f"{where}[{index}]", depth + 1, open_containers) for index, item in enumerate(list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value))]
    finally:
        open_containers.discard(id(value))


def _tool_input(name, value):
    """`value` as plain JSON data for tool `name`, or the TypeError/ValueError that says what to fix."""
    if not isinstance(value, dict):
        raise TypeError(f'tool("{name}") takes its input as a dict, not {type(value).__name__}.')
    try:
        return _plain_json(value, "input", 0, set())
    except _InputProblem as problem:
        shown = _key_text(name)[1:-1]
        if str(problem).startswith("it "):
            raise problem.kind(f'tool("{shown}") cannot send `{problem.where}`: {problem}.') from None
        raise problem.kind(f'tool("{shown}") cannot send its input: `{problem.where}` {problem}.') from None


def _instance_of(value, module_name, class_name):
    """isinstance against a class of a library the cell has imported (never importing it here).

    Checked against the class itself, not `type(value).__module__`: pandas 3 reports "pandas" where
    pandas 2 reported "pandas.core.frame", and a subclass (a GeoDataFrame) is a DataFrame too."""
    module = sys.modules.get(module_name)
    cls = getattr(module, class_name, None) if module is not None else None
    return isinstance(cls, type) and isinstance(value, cls)


def _is_dataframe(value):
    return _instance_of(value, "pandas", "DataFrame")


def _is_series(value):
    return _instance_of(value, "pandas", "Series")


def _is_figure(value):
    return _instance_of(value, "matplotlib.figure", "Figure")


def _is_pil_image(value):
    return _instance_of(value, "PIL.Image", "Image")


def _cell_text(value):
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def _frame_table(frame, limit):
    rows_total, columns_total = frame.shape
    shown = frame.head(limit)
    index_name = frame.index.name if frame.index.name is not None else ""
    header = [_cell_text(index_name)] + [_cell_text(column) for column in shown.columns]
    rows = [[_cell_text(index)] + [_cell_text(cell) for cell in row] for index, row in zip(shown.index, shown.itertuples(index=False, name=None))]
    dtypes = ", ".join(f"{column}: {dtype}" for column, dtype in list(frame.dtypes.items())[:30])
    more = f"; first {len(shown)} rows shown" if rows_total > len(shown) else ""
    return f"DataFrame {rows_total} rows × {columns_total} columns{more}\n{_markdown_table(header, rows)}\ndtypes: {dtypes}"


def _series_table(series, limit):
    shown = series.head(limit)
    name = series.name if series.name is not None else "value"
    rows = [[_cell_text(index), _cell_text(value)] for index, value in shown.items()]
    more = f"; first {len(shown)} shown" if len(series) > len(shown) else ""
    return f"Series `{name}` of {len(series)} values, dtype {series.dtype}{more}\n{_markdown_table(['', _cell_text(name)], rows)}"


def _figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()


def _module_has_compiled_code(module):
    path = getattr(module, "__file__", None) or ""
    return path.endswith((".so", ".pyd", ".dylib")) or (getattr(module, "__spec__", None) is not None and type(getattr(module.__spec__, "loader", None)).__name__ == "ExtensionFileLoader")


def refresh_after_install(distributions):
    """After `distributions` were installed: let the next import see them, and say what needs a reset."""
    import importlib
    import importlib.metadata

    importlib.invalidate_caches()
    wanted = {re.sub(r"[-_.]+", "-", name).lower() for name in distributions}
    top_levels = set()
    for top_level, owners in importlib.metadata.packages_distributions().items():
        if any(re.sub(r"[-_.]+", "-", owner).lower() in wanted for owner in owners):
            top_levels.add(top_level)
    imported = {name: module for name, module in list(sys.modules.items()) if module is not None and name.split(".")[0] in top_levels}
    compiled = sorted({name.split(".")[0] for name, module in imported.items() if _module_has_compiled_code(module)})
    if compiled:
        # Purging a package whose extension module is loaded leaves it half-imported (an extension
        # cannot be loaded twice in one process), so such a package is left alone and a reset asked for.
        return (
            f"Already imported with compiled extensions: {', '.join(f'`{name}`' for name in compiled)}. "
            "Run the next cell with `reset: true` to use the new install; until then the old version stays loaded."
        )
    for name in imported:
        del sys.modules[name]
    return ""


class _Magics:
    """What the rewritten magics call: `__runbound__.pip("install x")` and the like."""

    def __init__(self, executor):
        self._executor = executor

    def _expand(self, command):
        namespace = self._executor.namespace

        def braces(match):
            # `{print $1}` in an awk program is not Python: what does not evaluate stays as written.
            try:
                return str(eval(match.group(1), namespace))
            except Exception:  # noqa: BLE001
                return match.group(0)

        def dollar(match):
            name = match.group(1)
            return str(namespace[name]) if name in namespace else match.group(0)

        command = re.sub(r"(?<!\{)\{([^{}]+)\}(?!\})", braces, command)
        command = re.sub(r"(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)", dollar, command)
        return command.replace("$$", "$").replace("{{", "{").replace("}}", "}")

    def pip(self, args):
        return self._executor.hooks.pip(self._expand(args))

    def cd(self, path):
        return self._executor.hooks.cd(self._expand(path.strip()) or "~")

    def shell(self, command):
        status = self._executor.hooks.shell(self._expand(command))
        if status:
            print(f"[exit status {status}]", file=sys.stderr)

    def getoutput(self, command):
        return self._executor.hooks.getoutput(self._expand(command)).splitlines()

    def bash(self, script):
        self.shell(f"bash -c {shlex.quote(script)}")

    def timeit(self, line, namespace, body=None):
        """`%timeit [-n N] [-r R] statement`, or `%%timeit [-n N] [-r R] [setup]` over the cell's body."""
        import timeit as timeit_module

        words = line.split()
        options = {}
        while len(words) >= 2 and words[0] in ("-n", "-r"):
            options[words[0]] = int(words[1])
            words = words[2:]
        rest = " ".join(words)
        statement, setup = (rest, "pass") if body is None else (body, rest or "pass")
        repeat = options.get("-r", 5)
        timer = timeit_module.Timer(statement, setup, globals=namespace)
        number = options.get("-n") or timer.autorange()[0]
        runs = [seconds / number for seconds in timer.repeat(repeat=repeat, number=number)]
        mean = sum(runs) / len(runs)
        spread = math.sqrt(sum((run - mean) ** 2 for run in runs) / len(runs))
        print(f"{_duration(mean)} ± {_duration(spread)} per loop (mean ± std. dev. of {repeat} runs, {number} loops each)")

    def unsupported(self, name):
        raise RuntimeError(
            f"The magic `{name}` is not supported. Supported: `%pip`, `%cd`, `!command`, `x = !command`, "
            "`%%bash`, `%timeit`, `%%timeit`; write plain Python for the rest."
        )


def _duration(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds} s"


def _quiet(code, last):
    """IPython's rule: a `;` after the last expression statement `last` keeps its value from being echoed."""
    # After the last statement only `;`, blanks, comments and line continuations can follow (anything
    # else would be a statement), so the text there is read directly: tokenizing the cell cost more
    # than running a small one. AST columns count UTF-8 bytes.
    lines = code.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rest = lines[last.end_lineno - 1].encode("utf-8")[last.end_col_offset :].decode("utf-8", "replace")
    for line in [rest, *lines[last.end_lineno :]]:
        text = line.split("#", 1)[0].replace("\\", "").strip()
        if text:
            return text.startswith(";")
    return False


class CellExecutor:
    """Runs cells in one persistent namespace and reports their outputs through `emit`."""

    def __init__(self, emit, call_tool, hooks=None, limits=None, internal_files=()):
        self.emit = emit
        self._internal_files = {_THIS_FILE, *(os.path.normcase(os.path.abspath(path)) for path in internal_files)}
        self.call_tool = call_tool
        self.hooks = hooks if hooks is not None else Hooks()
        self.limits = limits if limits is not None else Limits()
        self.count = 0
        self._shown_figures = set()
        self._loop = None
        self.namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        self.namespace.update(display=self.display, tool=self.tool, __runbound__=_Magics(self))
        # Figures render off-screen; an interactive backend would open windows or fail without one.
        os.environ["MPLBACKEND"] = "Agg"
        if "matplotlib" in sys.modules:
            sys.modules["matplotlib"].use("Agg")
        warnings.filterwarnings("ignore", message=".*non-interactive.*cannot be shown")

    # --- what a cell calls -------------------------------------------------------------------

    def tool(self, name, input=None):
        """Call a tool of the run; returns its text (a `ToolText`), raises `ToolCallError` when it failed."""
        if not isinstance(name, str):
            raise TypeError(f"tool() takes the tool's name as a string, not {type(name).__name__}.")
        found = _lone_surrogate(name)
        if found is not None:
            raise ValueError(f"tool() takes the tool's name as a well-formed string; it has a lone surrogate (U+{found[0]:04X} at index {found[1]}).")
        if threading.current_thread() is not threading.main_thread():
            # The bridge's replies arrive on the one channel the cell's thread reads; a second reader
            # would take the other's reply (or the next cell) and leave both waiting.
            raise RuntimeError(f'tool("{name}") was called from the thread `{threading.current_thread().name}`; call tool() from the cell itself (its main thread).')
        plain = _tool_input(name, {} if input is None else input)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        result = self.call_tool(str.__str__(name), plain)
        content = result.get("content", [])
        text = ToolText("\n".join(part.get("text", "") for part in content if part.get("type") == "text"))
        text.images = tuple(part for part in content if part.get("type") == "image")
        text.structured = result.get("structured")
        if result.get("isError"):
            raise ToolCallError(str(text) or f"The tool `{name}` failed without a message.")
        return text

    def display(self, *objects):
        """Show each object now: text, a table, or an image."""
        sys.stdout.flush()
        for value in objects:
            self._show(value, "display")

    # --- rendering ----------------------------------------------------------------------------

    def _image(self, mime_type, data):
        if len(data) > self.limits.max_image_bytes:
            self.emit({"type": "display", "mimeType": "text/plain", "text": f"[image of {len(data)} bytes not shown: over the {self.limits.max_image_bytes}-byte limit; save it to a file or shrink it]"})
            return
        self.emit({"type": "image", "mimeType": mime_type, "data": base64.b64encode(data).decode("ascii")})

    def _text(self, value, echo=False):
        # display("x") shows the text; an echoed "x" is its repr, as in a notebook.
        text = value if isinstance(value, str) and not echo else repr(value)
        cap = self.limits.max_repr_chars
        if len(text) > cap:
            text = text[: cap // 2] + f"\n[… {len(text) - cap} characters omitted …]\n" + text[-cap // 2 :]
        return text

    def _show(self, value, kind):
        if _is_dataframe(value):
            self.emit({"type": kind, "mimeType": "text/markdown", "text": _frame_table(value, self.limits.table_rows)} if kind == "display" else {"type": kind, "text": _frame_table(value, self.limits.table_rows)})
            return
        if _is_series(value):
            self.emit({"type": kind, "mimeType": "text/markdown", "text": _series_table(value, self.limits.table_rows)} if kind == "display" else {"type": kind, "text": _series_table(value, self.limits.table_rows)})
            return
        if _is_figure(value):
            self._shown_figures.add(id(value))
            self._image("image/png", _figure_png(value))
            return
        if _is_pil_image(value):
            buffer = io.BytesIO()
            value.save(buffer, format="PNG")
            self._image("image/png", buffer.getvalue())
            return
        if isinstance(value, ToolText) and value.images:
            self.emit({"type": kind, "mimeType": "text/plain", "text": str(value)} if kind == "display" else {"type": kind, "text": str(value)})
            for image in value.images:
                self.emit({"type": "image", "mimeType": image.get("mimeType", "image/png"), "data": image.get("data", "")})
            return
        for method, mime_type in (("_repr_png_", "image/png"), ("_repr_jpeg_", "image/jpeg")):
            render = getattr(value, method, None)
            if callable(render) and not isinstance(value, type):
                data = render()
                if data:
                    self._image(mime_type, data if isinstance(data, bytes) else base64.b64decode(data))
                    return
        render = getattr(value, "_repr_markdown_", None)
        if callable(render) and not isinstance(value, type) and kind == "display":
            self.emit({"type": "display", "mimeType": "text/markdown", "text": self._text(render())})
            return
        if kind == "display":
            self.emit({"type": "display", "mimeType": "text/plain", "text": self._text(value)})
        else:
            self.emit({"type": "result", "text": self._text(value, echo=True)})

    def _flush_figures(self):
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        numbers = pyplot.get_fignums()
        shown = 0
        dropped = 0
        for number in numbers:
            figure = pyplot.figure(number)
            if id(figure) not in self._shown_figures:
                if shown < self.limits.max_figures:
                    self._image("image/png", _figure_png(figure))
                    shown += 1
                else:
                    dropped += 1
            pyplot.close(figure)
        self._shown_figures.clear()
        if dropped:
            self.emit({"type": "display", "mimeType": "text/plain", "text": f"[{dropped} more figure(s) not shown: at most {self.limits.max_figures} per cell; save them with savefig() or show fewer]"})

    # --- running ------------------------------------------------------------------------------

    def _compile(self, code):
        self.count += 1
        filename = f"<cell-{self.count}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        try:
            tree = ast.parse(code, filename, "exec")
        except SyntaxError as error:
            # Where the parser itself was when it failed is not the reader's business.
            raise error.with_traceback(None) from None
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not _quiet(code, tree.body[-1]):
            last = compile(ast.Expression(tree.body.pop().value), filename, "eval", flags)
        body = compile(tree, filename, "exec", flags)
        return body, last

    def _report_error(self, error):
        # The executor's own frames (running the cell, the magics' helpers) are noise to the reader.
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if os.path.normcase(os.path.abspath(frame.filename)) not in self._internal_files]
        lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
        lines.extend(traceback.format_exception_only(type(error), error))
        self.emit({"type": "error", "name": type(error).__name__, "message": str(error), "traceback": "".join(lines)})

    def _begin(self):
        saved = (sys.stdout, sys.stderr)
        sys.stdout = _ForwardingStream("stdout", self.emit)
        sys.stderr = _ForwardingStream("stderr", self.emit)
        return saved

    def _end(self, saved):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            sys.stdout, sys.stderr = saved

    def _finish(self, value):
        sys.stdout.flush()
        sys.stderr.flush()
        if value is not None:
            self.namespace["_"] = value
            self._show(value, "result")
        self._flush_figures()

    def _failed(self, error):
        sys.stdout.flush()
        sys.stderr.flush()
        self._report_error(error)
        self._flush_figures()
        return "interrupted" if isinstance(error, KeyboardInterrupt) else "error"

    def run(self, code):
        """Run one cell; returns "ok", "error" or "interrupted". Never raises for the cell's own errors."""
        saved = self._begin()
        try:
            try:
                body, last = self._compile(code)
                value = self._evaluate(body, last)
                self._finish(value)
                return "ok"
            except BaseException as error:  # noqa: BLE001 — the cell's errors are its output
                return self._failed(error)
        finally:
            self._end(saved)

    async def run_async(self, code):
        """`run` as a coroutine, for a host whose event loop is already running (Pyodide)."""
        saved = self._begin()
        try:
            try:
                body, last = self._compile(code)
                value = eval(body, self.namespace)
                if isinstance(value, types.CoroutineType):
                    await value
                value = None if last is None else eval(last, self.namespace)
                if isinstance(value, types.CoroutineType):
                    value = await value
                self._finish(value)
                return "ok"
            except BaseException as error:  # noqa: BLE001
                return self._failed(error)
        finally:
            self._end(saved)

    def _evaluate(self, body, last):
        value = eval(body, self.namespace)
        if isinstance(value, types.CoroutineType):
            self._await(value)
        if last is None:
            return None
        value = eval(last, self.namespace)
        return self._await(value) if isinstance(value, types.CoroutineType) else value

    def _await(self, coroutine):
        if self._loop is None:
            # asyncio costs tens of milliseconds to import; only a cell that awaits pays for it.
            import asyncio

            self._loop = asyncio.new_event_loop()
        task = self._loop.create_task(coroutine)
        try:
            return self._loop.run_until_complete(task)
        except BaseException:
            # An interrupt leaves the task pending; cancel it so the next cell does not resume it.
            if not task.done():
                task.cancel()
                try:
                    self._loop.run_until_complete(task)
                except BaseException:  # noqa: BLE001
                    pass
            raise
