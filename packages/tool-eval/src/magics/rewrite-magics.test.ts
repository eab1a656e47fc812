import { describe, expect, it } from "vitest";
import { rewriteMagics } from "./rewrite-magics.js";

// Cells that are Python already: every `%` and `!` in them is text or an operator.
const untouched: Array<[string, string]> = [
  ["modulo", "x = 10 % 3"],
  ["not-equal", "ok = a != b"],
  ["percent formatting", 'print("%d rows" % n)'],
  ["single-quoted string", "s = '%pip install x'"],
  ["double-quoted string", 's = "!ls -la"'],
  ["triple-quoted text with a magic-looking line", 'tmpl = """\n%s rows\n%d cols\n"""'],
  ["triple single quotes", "doc = '''\n!important note\n'''"],
  ["docstring line", 'def f():\n    """\n    !important note\n    """\n    return 1'],
  ["f-string", 'msg = f"{x}% done!"'],
  ["f-string with a nested expression and quotes", "msg = f\"{d['k'] % 2}\n\""],
  ["f-string whose expression holds a string with a newline-looking magic", 'line = f"{"%pip"}"'],
  ["raw string", 'pattern = r"\\d+%\\!"'],
  ["byte string", "data = b'%!'"],
  ["escaped quote in a string", 's = "say \\"hi\\"\\n!x"'],
  ["modulo inside brackets on the next line", "x = (10\n     % 3)"],
  ["not-equal inside brackets on the next line", "ok = (a\n      != b)"],
  ["modulo after a backslash continuation", "y = 5 \\\n  % 2"],
  ["not-equal after a backslash continuation", "z = a \\\n  != b"],
  ["list spanning lines", "items = [\n  '%a',\n  !b if False else 1,\n]"],
  ["dict spanning lines", "d = {\n  'k':\n  %s,\n}"],
  ["comment with a magic", "x = 1  # !ls or %pip"],
  ["comment line", "# %pip install pandas\nx = 1"],
  ["magic-looking text after a multi-line string closes on the same line", 's = """a\nb"""; t = "%d" % 1'],
  ["line starting with != is broken Python, not a magic", "!= 3"],
  ["augmented modulo", "x %= 3"],
];

// Cells with IPython habits, and the plain code they become.
const rewritten: Array<[string, string, string]> = [
  ["%pip", "%pip install pandas", '__runbound__.pip("install pandas")'],
  ["!pip runs the kernel's pip", "!pip install -q requests", '__runbound__.pip("install -q requests")'],
  ["!pip3 too", "!pip3 install requests", '__runbound__.pip("install requests")'],
  ["%cd", "%cd src/data", '__runbound__.cd("src/data")'],
  ["!cmd", "!ls -la | head", '__runbound__.shell("ls -la | head")'],
  ["!cmd with quotes", `!echo "it's" 'ok'`, '__runbound__.shell("echo \\"it\'s\\" \'ok\'")'],
  ["var = !cmd", "files = !ls *.py", 'files = __runbound__.getoutput("ls *.py")'],
  ["a, b = !cmd", "a, b = !echo 1; echo 2", 'a, b = __runbound__.getoutput("echo 1; echo 2")'],
  [
    "indented magic inside a loop",
    "for f in files:\n    !wc -l {f}\nprint(1)",
    'for f in files:\n    __runbound__.shell("wc -l {f}")\nprint(1)',
  ],
  ["magic after code", "x = 1\n%pip install y\nx", 'x = 1\n__runbound__.pip("install y")\nx'],
  ["magic after a closed multi-line string", 's = """\n%x\n"""\n!ls', 's = """\n%x\n"""\n__runbound__.shell("ls")'],
  ["magic after a closed bracket", "x = (1,\n 2)\n!ls", 'x = (1,\n 2)\n__runbound__.shell("ls")'],
  ["magic with a backslash continuation", "!ls \\\n  -la", '__runbound__.shell("ls -la")'],
  ["%timeit", "%timeit sum(range(100))", '__runbound__.timeit("sum(range(100))", globals())'],
  ["%timeit with options", "%timeit -n 10 -r 2 f()", '__runbound__.timeit("-n 10 -r 2 f()", globals())'],
  ["%%bash", "%%bash\necho hi\nls", '__runbound__.bash("echo hi\\nls")'],
  ["%%bash after blank lines", "\n\n%%bash\necho hi", '__runbound__.bash("echo hi")'],
  ["%%timeit with setup", "%%timeit -n 5 x = 2\nx ** 10", '__runbound__.timeit("-n 5 x = 2", globals(), "x ** 10")'],
  ["%matplotlib inline is accepted", "%matplotlib inline\nplt.plot([1])", "None\nplt.plot([1])"],
  ["unknown line magic", "%load_ext autoreload", '__runbound__.unsupported("%load_ext")'],
  ["unknown cell magic", "%%writefile a.txt\nhello", '__runbound__.unsupported("%%writefile")'],
  ["tab-indented magic", "if True:\n\t!ls", 'if True:\n\t__runbound__.shell("ls")'],
  // The scanner's state decides the next line: each of these strings must end exactly where Python ends it.
  [
    "an escaped quote does not end a triple-quoted string",
    "t = '''it\\'''s\n!not a magic\n'''\n!ls",
    "t = '''it\\'''s\n!not a magic\n'''\n__runbound__.shell(\"ls\")",
  ],
  ["an escaped backslash before the closing quote", 's = "a\\\\"\n!ls', 's = "a\\\\"\n__runbound__.shell("ls")'],
  ["doubled braces in an f-string are text", 'msg = f"{{literal"\n!ls', 'msg = f"{{literal"\n__runbound__.shell("ls")'],
  [
    "an f-string expression with quotes and brackets closes",
    "msg = f\"{d['a'][0]:>4}\"\n!ls",
    'msg = f"{d[\'a\'][0]:>4}"\n__runbound__.shell("ls")',
  ],
  ["braces in a plain string are text", 's = "{\'"\n!ls', 's = "{\'"\n__runbound__.shell("ls")'],
  [
    "an identifier ending in f before a quote is no f-string prefix",
    'if a:\n    pass\nelif"{\'":\n    pass\n!ls',
    'if a:\n    pass\nelif"{\'":\n    pass\n__runbound__.shell("ls")',
  ],
  ["an unterminated one-line string ends at its line", 's = "oops\n!ls', 's = "oops\n__runbound__.shell("ls")'],
  ["a closing bracket ends the bracket", "f(a,\n  b)\n%cd ..", 'f(a,\n  b)\n__runbound__.cd("..")'],
  ["a magic right after a comment line", "# setup\n!ls", '# setup\n__runbound__.shell("ls")'],
  ["a bracket in a comment opens nothing", "x = 1  # (see below\n!ls", 'x = 1  # (see below\n__runbound__.shell("ls")'],
  [
    "triple quotes in a comment open no string",
    '# a """ in a comment\n%cd ..',
    '# a """ in a comment\n__runbound__.cd("..")',
  ],
  ["!pip with an assignment is a shell capture", "out = !pip list", 'out = __runbound__.getoutput("pip list")'],
  ["%%timeit trims its setup", "%%timeit   x = 1   \nx + 1", '__runbound__.timeit("x = 1", globals(), "x + 1")'],
  ["%%sh is bash", "%%sh\necho hi", '__runbound__.bash("echo hi")'],
  ["a line magic with trailing blanks", "%cd src   ", '__runbound__.cd("src")'],
  ["a shell command with surrounding blanks", "!  ls  ", '__runbound__.shell("ls")'],
  ["code before a magic on the next line", "x = y\n!ls", 'x = y\n__runbound__.shell("ls")'],
  [
    "unterminated quote in a shell command does not swallow the next lines",
    "!echo it's\n!ls",
    '__runbound__.shell("echo it\'s")\n__runbound__.shell("ls")',
  ],
];

describe("rewriteMagics", () => {
  it.each(untouched)("leaves Python alone: %s", (_name, code) => {
    expect(rewriteMagics(code)).toBe(code);
  });

  it.each(rewritten)("rewrites %s", (_name, code, expected) => {
    expect(rewriteMagics(code)).toBe(expected);
  });

  it("has a corpus of at least 30 cases", () => {
    expect(untouched.length + rewritten.length).toBeGreaterThanOrEqual(30);
  });
});
