// The five debugging tasks of bench/debug/peer/run.mjs: each a small Python project written into a
// fresh directory, a question with one fixed answer, and for each side the shortest call sequence a
// competent agent would use with that side's tools.
//
// A step is `(ctx) => [toolName, arguments]`, so it can use the peer's session id (ctx.sid, taken from
// create_debug_session's answer), the task's directory (ctx.dir) and breakpoint lines found in the
// sources by their text (ctx.line(file, text)), which keeps the sources free to change.
// `answer` is checked against each tool result's text as returned: a task is finished only when a
// result shows it. `cleanup` runs after the answer (or after the steps ran out) and is counted too.

// The dependency of task (c) is installed in the bench's own interpreter (a copy of the debugpy venv,
// see run.mjs), i.e. in a real site-packages directory outside the task directory.
export const DEPENDENCY = {
  name: "ratelib",
  source: `def _round(x):
    return int(x * 100) / 100


def convert(amount, rate):
    return _round(amount * rate)


def quote(items, currency):
    rate = {"EUR": 0.92, "GBP": 0.79}[currency]
    subtotal = sum(price * qty for price, qty in items)
    fee = 2.5 if subtotal < 100 else 0
    return convert(subtotal + fee, rate)
`,
};

const PYPROJECT = `[project]\nname = "bench-task"\nversion = "0.0.0"\n`;

// The peer's session id, or a visible placeholder when create_debug_session did not answer with one.
const sid = (ctx) => ctx.sid ?? "missing-session-id";
const peerCreate = (ctx) => ["create_debug_session", { language: "python", executablePath: ctx.python }];
const peerClose = (ctx) => ["close_debug_session", { sessionId: sid(ctx) }];
const oursTerminate = () => ["debug", { op: "terminate" }];

export const TASKS = [
  {
    id: "a",
    title: "loop, 7th iteration",
    question: "the value of `balance` after the loop's 7th update (the loop has no index variable)",
    files: {
      "pyproject.toml": PYPROJECT,
      "ledger.py": `READINGS = [12, 7, 31, 5, 18, 26, 9, 14, 3, 22, 17, 8]


def apply(balance, reading):
    return (balance * 3 + reading * 7) % 9973


def run(readings):
    balance = 100
    history = []
    for reading in readings:
        balance = apply(balance, reading)
        history.append(balance)
    return balance


print("final", run(READINGS))
`,
    },
    answer: "2945",
    ours: [
      // A hit count: stop the 7th time the line runs; the stop answer carries the locals.
      (ctx) => [
        "debug",
        {
          op: "breakpoints",
          file: "ledger.py",
          points: [{ line: ctx.line("ledger.py", "history.append(balance)"), hit_condition: "7" }],
        },
      ],
      () => ["debug", { op: "launch", program: "ledger.py" }],
    ],
    oursCleanup: [oursTerminate],
    // The peer has no hit count; its best is a condition on program state (6 entries appended so far).
    peer: [
      peerCreate,
      (ctx) => [
        "set_breakpoint",
        {
          sessionId: sid(ctx),
          file: `${ctx.dir}/ledger.py`,
          line: ctx.line("ledger.py", "history.append(balance)"),
          condition: "len(history) == 6",
        },
      ],
      (ctx) => ["start_debugging", { sessionId: sid(ctx), scriptPath: `${ctx.dir}/ledger.py` }],
      (ctx) => ["get_local_variables", { sessionId: sid(ctx) }],
    ],
    peerCleanup: [peerClose],
  },
  {
    id: "b",
    title: "who raised",
    question: "which function raised, and the message (three calls deep; the caller swallows it)",
    files: {
      "pyproject.toml": PYPROJECT,
      "settings.py": `def parse_value(key, raw):
    if key == "port" and not raw.isdigit():
        raise ValueError(f"port must be numeric, got {raw!r}")
    return int(raw) if raw.isdigit() else raw


def parse_section(lines):
    out = {}
    for line in lines:
        key, _, raw = line.partition("=")
        out[key.strip()] = parse_value(key.strip(), raw.strip())
    return out


def load(text):
    return {"server": parse_section(text.splitlines())}
`,
      "app.py": `import settings

TEXT = "host = example.org\\nport = eighty\\nworkers = 4"


def main():
    try:
        config = settings.load(TEXT)
    except Exception:
        print("could not load configuration")
        return 1
    print(config)
    return 0


main()
`,
    },
    // Both the raising function and the message must be in the answer.
    answer: ["parse_value", "port must be numeric, got 'eighty'"],
    ours: [
      () => ["debug", { op: "exceptions", filters: ["raised"] }],
      () => ["debug", { op: "launch", program: "app.py" }],
    ],
    oursCleanup: [oursTerminate],
    // start_debugging answers only "paused, reason exception"; the stack trace carries the frames and
    // the exception's message.
    peer: [
      peerCreate,
      (ctx) => ["start_debugging", { sessionId: sid(ctx), scriptPath: `${ctx.dir}/app.py`, breakOnExceptions: "all" }],
      (ctx) => ["get_stack_trace", { sessionId: sid(ctx) }],
    ],
    peerCleanup: [peerClose],
  },
  {
    id: "c",
    title: "dependency's argument",
    question: "the `amount` that ratelib.convert (installed in site-packages) received",
    files: {
      "pyproject.toml": PYPROJECT,
      "checkout.py": `import ratelib

CART = [(19.99, 3), (4.25, 4), (0.5, 7)]


def main():
    total = ratelib.quote(CART, "GBP")
    print("total", total)


main()
`,
    },
    answer: "82.97",
    // A function breakpoint by name; library code needs just-my-code off on both sides.
    ours: [
      () => ["debug", { op: "breakpoints", functions: ["convert"] }],
      () => ["debug", { op: "launch", program: "checkout.py", just_my_code: false }],
    ],
    oursCleanup: [oursTerminate],
    peer: [
      peerCreate,
      (ctx) => ["set_breakpoint", { sessionId: sid(ctx), function: "convert" }],
      (ctx) => [
        "start_debugging",
        { sessionId: sid(ctx), scriptPath: `${ctx.dir}/checkout.py`, dapLaunchArgs: { justMyCode: false } },
      ],
      (ctx) => ["get_local_variables", { sessionId: sid(ctx) }],
    ],
    peerCleanup: [peerClose],
  },
  {
    id: "d",
    title: "nested structure",
    question: 'catalog["warehouses"][2]["bins"][5]["sku"] where the catalog is built (its repr is ~2 KB)',
    files: {
      "pyproject.toml": PYPROJECT,
      "inventory.py": `def build_catalog():
    warehouses = []
    for w in range(4):
        bins = [
            {"bin": b, "sku": f"W{w}-B{b}-{(w * 37 + b * 11) % 97:02d}", "qty": (w + 1) * (b + 3)}
            for b in range(8)
        ]
        warehouses.append({"name": f"wh-{w}", "bins": bins})
    return {"region": "eu-west", "warehouses": warehouses}


def summarize(catalog):
    return sum(b["qty"] for w in catalog["warehouses"] for b in w["bins"])


def main():
    catalog = build_catalog()
    total = summarize(catalog)
    print("units", total)


main()
`,
    },
    answer: "W2-B5-32",
    // Stop after the catalog is built, then evaluate the path (the locals' repr is cut before it).
    ours: [
      (ctx) => [
        "debug",
        { op: "breakpoints", file: "inventory.py", lines: [ctx.line("inventory.py", "total = summarize(catalog)")] },
      ],
      () => ["debug", { op: "launch", program: "inventory.py" }],
      () => ["debug", { op: "evaluate", expression: 'catalog["warehouses"][2]["bins"][5]["sku"]' }],
    ],
    oursCleanup: [oursTerminate],
    peer: [
      peerCreate,
      (ctx) => [
        "set_breakpoint",
        {
          sessionId: sid(ctx),
          file: `${ctx.dir}/inventory.py`,
          line: ctx.line("inventory.py", "total = summarize(catalog)"),
        },
      ],
      (ctx) => ["start_debugging", { sessionId: sid(ctx), scriptPath: `${ctx.dir}/inventory.py` }],
      (ctx) => [
        "evaluate_expression",
        { sessionId: sid(ctx), expression: 'catalog["warehouses"][2]["bins"][5]["sku"]' },
      ],
    ],
    peerCleanup: [peerClose],
  },
  {
    id: "e",
    title: "pytest, failing assert",
    question:
      "the local `discount` in test_invoice_total when its assertion fails (pytest's report shows only `total`)",
    files: {
      "pyproject.toml": PYPROJECT,
      "invoice.py": `def loyalty_discount(years, subtotal):
    rate = min(years, 5) * 0.025
    return round(subtotal * rate, 2)


def invoice_total(lines, years):
    subtotal = sum(price * qty for price, qty in lines)
    return subtotal - loyalty_discount(years, subtotal), subtotal
`,
      "test_invoice.py": `from invoice import invoice_total, loyalty_discount


def test_invoice_total():
    lines = [(40, 1), (25, 2), (13.5, 2)]
    total, subtotal = invoice_total(lines, years=3)
    discount = loyalty_discount(3, subtotal)
    assert total == 107.5


def test_no_discount_for_new_customers():
    assert loyalty_discount(0, 100) == 0
`,
    },
    answer: "8.78",
    // mode test runs `python -m pytest`; a breakpoint on the failing assertion stops with the locals.
    ours: [
      (ctx) => [
        "debug",
        { op: "breakpoints", file: "test_invoice.py", lines: [ctx.line("test_invoice.py", "assert total == 107.5")] },
      ],
      () => ["debug", { op: "launch", mode: "test", program: "test_invoice.py", test: "test_invoice_total" }],
    ],
    oursCleanup: [oursTerminate],
    // The peer launches scripts only (start_debugging's adapterLaunchConfig cannot swap its program
    // for debugpy's `module`: the launch fails). Its way in is to run pytest's own __main__.py as the
    // script, with cwd set back to the project; the agent must find that path outside the tool
    // (one shell call, not counted here).
    peer: [
      peerCreate,
      (ctx) => [
        "set_breakpoint",
        {
          sessionId: sid(ctx),
          file: `${ctx.dir}/test_invoice.py`,
          line: ctx.line("test_invoice.py", "assert total == 107.5"),
        },
      ],
      (ctx) => [
        "start_debugging",
        {
          sessionId: sid(ctx),
          scriptPath: ctx.pytestMain,
          args: ["test_invoice.py", "-k", "test_invoice_total"],
          adapterLaunchConfig: { cwd: ctx.dir },
        },
      ],
      (ctx) => ["get_local_variables", { sessionId: sid(ctx) }],
    ],
    peerCleanup: [peerClose],
  },
];
