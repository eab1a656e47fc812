import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileTreeWith } from "./test-support/file-tree.js";
import type { SessionRequests } from "./session-requests.js";
import { pythonImporters } from "./python-importers.js";

// The scan reads only the session's root; a real server is not needed to read import statements.
const sessionAt = (root: string): SessionRequests => ({ root }) as SessionRequests;
const signal = new AbortController().signal;

describe("pythonImporters: the files that import a module, from their import statements", () => {
  const files = {
    "src/pkg/__init__.py": "from .util import label\n",
    "src/pkg/util.py": "def label(name: str) -> str:\n    return name\n",
    "src/pkg/absolute.py": "from pkg.util import label\n",
    "src/pkg/relative.py": "from .util import label as named\n",
    "src/pkg/sub/__init__.py": "",
    "src/pkg/sub/deep.py": "from ..util import label\n",
    "src/pkg/plain.py": "import os, pkg.util as u\n",
    "src/pkg/submodule.py": "from pkg import util\n",
    "src/pkg/multiline.py": "from pkg import (\n    other,\n    util,\n)\n",
    "src/pkg/continued.py": "from pkg import other, \\\n    util\n",
    "src/pkg/unrelated.py": "import os\nfrom pkg.other import util_like\n",
    "src/pkg/comment.py": "# from pkg.util import label\nx = 1\n",
    "node_modules/pkg/vendored.py": "from pkg.util import label\n",
    ".venv/lib/site.py": "from pkg.util import label\n",
  };

  it("finds absolute, relative, parent-relative, plain, submodule and multi-line imports, and nothing else", async () => {
    const root = fileTreeWith(files);
    const found = await pythonImporters(sessionAt(root), join(root, "src/pkg/util.py"), signal);
    expect(found?.map((path) => path.slice(root.length + 1)).sort()).toEqual(
      [
        "src/pkg/__init__.py",
        "src/pkg/absolute.py",
        "src/pkg/continued.py",
        "src/pkg/multiline.py",
        "src/pkg/plain.py",
        "src/pkg/relative.py",
        "src/pkg/sub/deep.py",
        "src/pkg/submodule.py",
      ].sort(),
    );
  });

  it("a package's importers are those of its __init__; a top-level module is its file's stem", async () => {
    const root = fileTreeWith({
      ...files,
      "loose.py": "x = 1\n",
      "src/user.py": "from pkg import label\nimport loose\n",
    });
    const found = await pythonImporters(sessionAt(root), join(root, "src/pkg/__init__.py"), signal);
    expect(found?.map((path) => path.slice(root.length + 1))).toContain("src/user.py");
    expect(await pythonImporters(sessionAt(root), join(root, "loose.py"), signal)).toEqual([join(root, "src/user.py")]);
  });

  it("a file rewritten to drop its import is read again", async () => {
    const root = fileTreeWith(files);
    const session = sessionAt(root);
    expect(await pythonImporters(session, join(root, "src/pkg/util.py"), signal)).toContain(
      join(root, "src/pkg/absolute.py"),
    );
    writeFileSync(join(root, "src/pkg/absolute.py"), "import os  # no longer imports util\n");
    expect(await pythonImporters(session, join(root, "src/pkg/util.py"), signal)).not.toContain(
      join(root, "src/pkg/absolute.py"),
    );
  });

  it("a file too large to be a document is not read for its imports", async () => {
    const root = fileTreeWith({
      ...files,
      "src/pkg/generated.py": `from pkg.util import label\n${"# filler line of a generated module\n".repeat(130_000)}`,
    });
    const found = await pythonImporters(sessionAt(root), join(root, "src/pkg/util.py"), signal);
    expect(found).toContain(join(root, "src/pkg/absolute.py"));
    expect(found).not.toContain(join(root, "src/pkg/generated.py"));
  });
});
