// Installed in a debugpy debuggee through `evaluate`: a profile hook (sys.setprofile, and
// threading.setprofile for new threads) that writes each call into and return from a file under the
// workdir as a JSON line, up to a limit. A profile hook, not a trace hook: debugpy owns sys.settrace.
// A return the frame did not reach by a return (or yield) instruction is an exception unwinding it;
// the profile hook cannot see which exception (CPython saves it around the hook).
const TRACER = String.raw`import sys, json, os, threading, dis
def install(path, root, limit):
    out = open(path, 'w', buffering=1)
    state = {'depth': 0, 'count': 0}
    returns = {dis.opmap[name] for name in ('RETURN_VALUE', 'RETURN_CONST') if name in dis.opmap}
    yields = {dis.opmap[name] for name in ('YIELD_VALUE',) if name in dis.opmap}
    def short(value):
        try:
            text = repr(value)
        except Exception as error:
            text = '<repr failed: %s>' % type(error).__name__
        return text if len(text) <= 80 else text[:79] + '…'
    def hook(frame, event, arg):
        if event not in ('call', 'return'):
            return
        code = frame.f_code
        if not code.co_filename.startswith(root):
            return
        if state['count'] >= limit:
            return
        state['count'] += 1
        if event == 'call':
            names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
            out.write(json.dumps(['call', code.co_qualname if hasattr(code, 'co_qualname') else code.co_name, os.path.relpath(code.co_filename, root), frame.f_lineno, state['depth'], [[name, short(frame.f_locals.get(name))] for name in names]]) + '\n')
            state['depth'] += 1
        else:
            state['depth'] = max(0, state['depth'] - 1)
            opcode = code.co_code[frame.f_lasti] if 0 <= frame.f_lasti < len(code.co_code) else -1
            kind = 'return' if opcode in returns else 'yield' if opcode in yields else 'raise'
            out.write(json.dumps([kind, state['depth'], short(arg) if kind != 'raise' else None]) + '\n')
    sys.setprofile(hook)
    threading.setprofile(hook)`;

/**
 * A Python expression that installs the call tracer in the debuggee, writing to `path` the calls of
 * code whose file is under `root`, at most `limit` events.
 */
export function pythonTraceInstaller(path: string, root: string, limit: number): string {
  return `(lambda scope: (exec(${JSON.stringify(TRACER)}, scope), scope["install"](${JSON.stringify(path)}, ${JSON.stringify(root)}, ${limit}), "installed")[-1])({})`;
}

/** A Python expression that removes the tracer's hooks. */
export const PYTHON_TRACE_REMOVER =
  '(__import__("sys").setprofile(None), __import__("threading").setprofile(None), "removed")[-1]';
