// A generated Python project for the pyright side: a src-layout package (pyproject.toml) whose 20
// modules each import and call one function, so references span many files. node_modules is a link to
// the repository's, where pyright-langserver is a devDependency of tool-lsp.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const moduleCount = 20;

const greeting = `"""Greetings and shapes."""


def greet(name: str) -> str:
    """Say hello to someone by name."""
    return f"hello {name}"


class Shape:
    """A shape with an area."""

    def area(self) -> float:
        raise NotImplementedError
`;

const module = (index) => `from benchpkg.greeting import Shape, greet


class Square${index}(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def report_${index}(name: str) -> str:
    message = greet(name)
    return message + str(Square${index}(${index}).area())
`;

const main = `from benchpkg.greeting import greet
from benchpkg.module_0 import report_0


def main() -> str:
    message = greet("world")
    return message + report_0("again")
`;

/** Create one copy of the project. */
export function createPythonFixture(repo, label) {
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-bench-lsp-py-${label}-`)));
  const packageDirectory = join(workdir, "src/benchpkg");
  mkdirSync(packageDirectory, { recursive: true });
  writeFileSync(join(workdir, "pyproject.toml"), '[project]\nname = "benchpkg"\nversion = "0.0.0"\n');
  writeFileSync(join(packageDirectory, "__init__.py"), "");
  writeFileSync(join(packageDirectory, "greeting.py"), greeting);
  writeFileSync(join(packageDirectory, "main.py"), main);
  for (let index = 0; index < moduleCount; index++)
    writeFileSync(join(packageDirectory, `module_${index}.py`), module(index));
  symlinkSync(join(repo, "node_modules"), join(workdir, "node_modules"), "dir");
  return { workdir, root: workdir, remove: () => rmSync(workdir, { recursive: true, force: true }) };
}
