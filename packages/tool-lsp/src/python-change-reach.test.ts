import { describe, expect, it } from "vitest";
import { changedNames } from "./importers-first.js";
import { pythonCode } from "./python-change-reach.js";

const module = [
  "from typing import Any",
  "",
  "LIMIT = 10",
  "",
  "",
  "def annotated(name: str) -> str:",
  "    value = name.strip()",
  "    return value",
  "",
  "",
  "def inferred(name):",
  "    return name.strip()",
  "",
  "",
  "def long_signature(",
  "    name: str,",
  "    times: int = 1,",
  ") -> str:",
  "    return name * times",
  "",
  "",
  "class Model:",
  "    field: int = 1",
  "",
  "    def __init__(self, seed: int) -> None:",
  "        self.seed = seed",
  "        total = seed + 1",
  "",
  "    @property",
  "    def doubled(self) -> int:",
  "        return self.seed * 2",
  "",
  "    def helper(self):",
  "        return self.seed",
  "",
].join("\n");

/** What `changedNames` says for the module with `from` replaced by `to` (one occurrence). */
function change(from: string, to: string): { names: string[]; confined: boolean } {
  if (!module.includes(from)) throw new Error(`the module has no \`${from}\``);
  const changed = changedNames(module, module.replace(from, to), true);
  return { names: [...changed.declared].sort(), confined: changed.confined === true };
}

describe("changedNames for Python: which declarations an importer may see changed", () => {
  it("a comment changes nothing an importer sees", () => {
    expect(change("LIMIT = 10", "LIMIT = 10  # the most")).toEqual({ names: [], confined: true });
    expect(change("    return value", "    return value  # done")).toEqual({ names: [], confined: true });
  });

  it("the body of a function whose return type is declared is confined to the module", () => {
    expect(change("    return value", "    return bench_undefined_name")).toEqual({ names: [], confined: true });
    expect(change("    return name * times", "    return undefined_name")).toEqual({ names: [], confined: true });
    expect(change("        total = seed + 1", "        total = seed + 2")).toEqual({ names: [], confined: true });
  });

  it("the body of a function without one changes its inferred return type: its callers see it", () => {
    expect(change("    return name.strip()", "    return None")).toEqual({ names: ["inferred"], confined: false });
    expect(change("        return self.seed\n", "        return None\n")).toEqual({
      names: ["helper"],
      confined: false,
    });
  });

  it("an attribute assigned in a method is seen by the class's users", () => {
    expect(change("        self.seed = seed", "        self.seed = str(seed)")).toEqual({
      names: ["Model", "seed"],
      confined: false,
    });
  });

  it("a declaration is seen by whoever uses its name, a class body's by whoever uses the class", () => {
    expect(change("def annotated(name: str)", "def annotated(name: str, times: int)")).toEqual({
      names: ["annotated"],
      confined: false,
    });
    expect(change("LIMIT = 10", "# LIMIT = 10")).toEqual({ names: ["LIMIT"], confined: false });
    expect(change("    field: int = 1", "    field: str = 'a'")).toEqual({
      names: ["Model", "field"],
      confined: false,
    });
    expect(change("    @property", "    @staticmethod")).toEqual({ names: ["Model", "doubled"], confined: false });
    expect(change("    times: int = 1,", "    times: str = 'a',")).toEqual({
      names: ["long_signature"],
      confined: false,
    });
  });

  it("module-level lines that declare nothing fall back to every identifier on them", () => {
    const changed = changedNames(
      module,
      module.replace("from typing import Any", "from typing import Any, cast"),
      true,
    );
    expect(changed.confined).not.toBe(true);
    expect([...changed.names]).toContain("cast");
  });

  it("other languages keep the identifiers and declarations of the changed lines", () => {
    const changed = changedNames("let a = 1; // x\n", "let a = 1; // y\n");
    expect(changed.confined).toBeUndefined();
  });
});

describe("pythonCode", () => {
  it("drops comments and blank lines, not a # inside a string or a type comment", () => {
    expect(pythonCode("x = '#a'  # note\n\n# only\ny = []  # type: list[int]\n")).toBe(
      "x = '#a'\ny = []  # type: list[int]",
    );
  });
});
