/** A pattern that must parse and find `matches` matches in `source`. */
export interface ValidPattern {
  language: string;
  pattern: string;
  source: string;
  matches: number;
}

/** A pattern that must be reported as unparseable (never a silent zero-match answer). */
export interface BrokenPattern {
  language: string;
  pattern: string;
}

export const validPatterns: ValidPattern[] = [
  // python
  { language: "python", pattern: "isinstance($A, $B)", source: "if isinstance(x, int):\n    pass\nisinstance( y ,\n  str)\n'isinstance(z, int)'\n", matches: 2 },
  { language: "python", pattern: "def $F($$$P): $$$B", source: "def f(a, b):\n    return a\n\nclass C:\n    def m(self):\n        pass\n", matches: 2 },
  { language: "python", pattern: "print($$$A)", source: "print()\nprint(1, 2)\n# print(3)\n", matches: 2 },
  { language: "python", pattern: "$A == $A", source: "x == x\nx == y\nf(a) == f( a )\n", matches: 2 },
  { language: "python", pattern: "import $M", source: "import os\nimport sys\nfrom x import y\n", matches: 2 },
  { language: "python", pattern: "lambda $X: $Y", source: "f = lambda a: a + 1\n", matches: 1 },
  // go
  { language: "go", pattern: "fmt.Println($$$A)", source: 'package m\nimport "fmt"\nfunc f() {\n\tfmt.Println("a", 1)\n\tfmt.Println()\n}\n', matches: 2 },
  { language: "go", pattern: "if err != nil { return $$$R }", source: "package m\nfunc f() error {\n\tif err != nil { return err }\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn nil\n}\n", matches: 2 },
  { language: "go", pattern: "func $F($$$P) error { $$$B }", source: "package m\nfunc a() error { return nil }\nfunc b() int { return 1 }\n", matches: 1 },
  { language: "go", pattern: "defer $X.Close()", source: "package m\nfunc f() {\n\tdefer file.Close()\n\tdefer other.Stop()\n}\n", matches: 1 },
  { language: "go", pattern: "$X := make($T, $N)", source: "package m\nfunc f() {\n\tbuf := make([]byte, 10)\n\tm := make(map[string]int)\n}\n", matches: 1 },
  // rust
  { language: "rust", pattern: "$X.unwrap()", source: "fn main() { let a = b.unwrap(); let c = d.expect(\"x\"); e().unwrap(); }\n", matches: 2 },
  { language: "rust", pattern: "let $A = $B;", source: "fn main() { let a = 1; let mut b = 2; }\n", matches: 1 },
  { language: "rust", pattern: "fn $F($$$P) -> $R { $$$B }", source: "fn a() -> i32 { 1 }\nfn b() {}\n", matches: 1 },
  { language: "rust", pattern: "println!($$$A)", source: 'fn main() { println!("{}", x); eprintln!("y"); }\n', matches: 1 },
  { language: "rust", pattern: "impl $T for $S { $$$B }", source: "impl Display for S { fn fmt(&self) {} }\nimpl S {}\n", matches: 1 },
  // c
  { language: "c", pattern: "malloc($N)", source: "void f(void) { char *p = malloc(10); free(p); q = malloc(n * 2); }\n", matches: 2 },
  { language: "c", pattern: "free($P);", source: "void f(void) { free(p); free( q ); }\n", matches: 2 },
  { language: "c", pattern: "if ($C) { $$$B }", source: "void f(void) { if (x) { y(); } if (z) w(); }\n", matches: 1 },
  { language: "c", pattern: "return $X;", source: "int f(void) { return 1; }\nint g(void) { return a + b; }\n", matches: 2 },
  { language: "c", pattern: "#include $H", source: "#include <stdio.h>\n#include \"local.h\"\nint x;\n", matches: 2 },
  { language: "c", pattern: "struct $S { $$$F }", source: "struct a { int x; };\nstruct b;\n", matches: 1 },
  // dart
  { language: "dart", pattern: "if ($X != null) $X.dispose()", source: "void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}\n", matches: 1 },
  { language: "dart", pattern: "dispose($X)", source: "void f() {\n  dispose(a);\n  dispose(\n    b,\n  );\n  print('dispose(c)');\n}\n", matches: 2 },
  { language: "dart", pattern: "print($A)", source: "void f() {\n  print(1);\n  print('x');\n}\n", matches: 2 },
  { language: "dart", pattern: "class $C extends $B { $$$M }", source: "class A extends B {}\nclass C {}\n", matches: 1 },
  { language: "dart", pattern: "return $X;", source: "int f() {\n  return 1;\n}\n", matches: 1 },
  // typescript
  { language: "typescript", pattern: "console.log($$$A)", source: "console.log(1);\nconsole.log();\nconsole.error(2);\n", matches: 2 },
  { language: "typescript", pattern: "await $X", source: "async function f() { await a(); await b; }\n", matches: 2 },
  { language: "typescript", pattern: "a: 1", source: "const o = { a: 1, b: 2 };\n", matches: 1 },
  { language: "typescript", pattern: "function $F($$$P) { $$$B }", source: "function a() {}\nfunction b(x) { return x; }\nconst c = () => 1;\n", matches: 2 },
  { language: "typescript", pattern: "import { $$$N } from \"$M\"", source: 'import { a, b } from "x";\nimport c from "y";\n', matches: 1 },
  { language: "typescript", pattern: "$A ?? $B", source: "const x = a ?? b;\nconst y = a || b;\n", matches: 1 },
  { language: "typescript", pattern: "public $M() { $$$B }", source: "class K {\n  public run() { go(); }\n  private stop() {}\n}\n", matches: 1 },
];

export const brokenPatterns: BrokenPattern[] = [
  // python
  { language: "python", pattern: "a +" },
  { language: "python", pattern: "foo(" },
  { language: "python", pattern: "def f(:" },
  { language: "python", pattern: "if x" },
  { language: "python", pattern: "print(1))" },
  { language: "python", pattern: "x = = 1" },
  // go
  { language: "go", pattern: "fmt.Println(" },
  { language: "go", pattern: "func (" },
  { language: "go", pattern: "if err != nil {" },
  { language: "go", pattern: "x := " },
  { language: "go", pattern: "a.b.(" },
  // rust
  { language: "rust", pattern: "let x = ;" },
  { language: "rust", pattern: "fn f(" },
  { language: "rust", pattern: "$X.unwrap(" },
  { language: "rust", pattern: "impl for {}" },
  { language: "rust", pattern: "match x {" },
  // c
  { language: "c", pattern: "malloc(" },
  { language: "c", pattern: "if (x" },
  { language: "c", pattern: "int = 3;" },
  { language: "c", pattern: "return (;" },
  { language: "c", pattern: "foo(1,,2)" },
  { language: "c", pattern: "#include <$H>" },
  // dart
  { language: "dart", pattern: "dispose(" },
  { language: "dart", pattern: "if ($X != null" },
  { language: "dart", pattern: "class {" },
  { language: "dart", pattern: "var = 1;" },
  { language: "dart", pattern: "print(1));" },
  // typescript
  { language: "typescript", pattern: "foo(" },
  { language: "typescript", pattern: "if (x) {" },
  { language: "typescript", pattern: "const x = ;" },
  { language: "typescript", pattern: "function (" },
  { language: "typescript", pattern: "a.b.)" },
  { language: "typescript", pattern: "class { foo( }" },
];
