import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import { describe, expect, it } from "vitest";
import { DocumentSync } from "./document-sync.js";
import { fileTreeWith } from "./test-support/file-tree.js";
import {
  changedNames,
  closeOpenedForAsks,
  IMPORTERS_FIRST_LIMIT,
  importersToAskFirst,
  openForAsks,
  rankImporters,
  throughModuleGetattr,
} from "./importers-first.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { PublishedSet } from "./published-diagnostics.js";
import { pythonImporters } from "./python-importers.js";

// Choosing the files reads only the session's root and its spec's import scan: no server is needed.
function sessionAt(root: string): LanguageServerSession {
  return { root, spec: { importersOf: pythonImporters } } as unknown as LanguageServerSession;
}

/** What the server reported on, as the stream's snapshot holds it. */
function reported(root: string, paths: readonly string[]): Map<string, PublishedSet> {
  return new Map(paths.map((path) => [pathToFileURL(join(root, path)).href, { generation: 1, diagnostics: [] }]));
}

const signal = new AbortController().signal;
const relative = (root: string, paths: readonly string[]): string[] =>
  paths.map((path) => path.slice(root.length + 1)).sort();

describe("importersToAskFirst: the files a write asks the server about first", () => {
  const files = {
    "pkg/__init__.py": "from .core import label\n",
    "pkg/core.py": "def label(name: str) -> str:\n    return name\n",
    "pkg/direct.py": "from .core import label\n",
    "pkg/indirect.py": "from pkg.direct import label\n",
    "app/through_init.py": "from pkg import label\n",
    "tests/test_core.py": "from pkg.core import label\n",
  };
  const everyFile = Object.keys(files);

  it("takes direct importers and the importers of a package __init__ that re-exports, not importers of importers", async () => {
    const root = fileTreeWith(files);
    const chosen = await importersToAskFirst(
      sessionAt(root),
      [join(root, "pkg/core.py")],
      reported(root, everyFile),
      signal,
    );
    expect(relative(root, chosen)).toEqual([
      "app/through_init.py",
      "pkg/__init__.py",
      "pkg/direct.py",
      "tests/test_core.py",
    ]);
  });

  it("leaves out files the server never reported on (outside what it checks), since asking about one makes it check it", async () => {
    const root = fileTreeWith(files);
    const known = everyFile.filter((path) => !path.startsWith("tests/"));
    const chosen = await importersToAskFirst(
      sessionAt(root),
      [join(root, "pkg/core.py")],
      reported(root, known),
      signal,
    );
    expect(relative(root, chosen)).not.toContain("tests/test_core.py");
    expect(relative(root, chosen)).toContain("pkg/direct.py");
  });

  it(`opens at most ${IMPORTERS_FIRST_LIMIT} files for a module the whole package imports`, async () => {
    const many: Record<string, string> = { "pkg/__init__.py": "", "pkg/core.py": "X = 1\n" };
    for (let index = 0; index < IMPORTERS_FIRST_LIMIT + 25; index += 1)
      many[`pkg/user${index}.py`] = "from pkg.core import X\n";
    const root = fileTreeWith(many);
    const chosen = await importersToAskFirst(
      sessionAt(root),
      [join(root, "pkg/core.py")],
      reported(root, Object.keys(many)),
      signal,
    );
    expect(chosen).toHaveLength(IMPORTERS_FIRST_LIMIT);
  });

  it("a server without an import scan opens nothing", async () => {
    const root = fileTreeWith(files);
    const session = { root, spec: {} } as unknown as LanguageServerSession;
    expect(await importersToAskFirst(session, [join(root, "pkg/core.py")], reported(root, everyFile), signal)).toEqual(
      [],
    );
  });
});

describe("changedNames and rankImporters: the importers that use what a write changed are asked about", () => {
  it("names the identifiers on the lines that differ, before and after, and the names they declare", () => {
    const before = "import os\n\ndef label(name: str) -> str:\n    return name\n\ndef other():\n    pass\n";
    const after = before.replace("def label(name: str)", "def label(name: str, times: int)");
    const changed = changedNames(before, after);
    expect([...changed.names].sort()).toEqual(["def", "int", "label", "name", "str", "times"]);
    expect([...changed.declared]).toEqual(["label"]);
    expect(changed.names.has("other")).toBe(false);
    expect(changedNames(before, before).names.size).toBe(0);
    expect([...changedNames("LIMIT = 1\n", "LIMIT = 2\n").declared]).toEqual(["LIMIT"]);
  });

  const root = fileTreeWith({
    "a.py": "from pkg import core\nx: str = 'a'\n",
    "b.py": "from pkg.core import label\nlabel('x')  # str\n",
    "c.py": "from pkg import core\ny: str = 'c'\n",
  });
  const paths = ["a.py", "b.py", "c.py"].map((path) => join(root, path));

  it("asks about the importers that mention a name few of them mention, and leaves the rest", async () => {
    expect(await rankImporters(paths, { names: new Set(["label", "str"]), declared: new Set() })).toMatchObject({
      ask: [join(root, "b.py")],
      leave: [join(root, "a.py"), join(root, "c.py")],
    });
  });

  it("gives each importer's size, which sizes the wait for the asks", async () => {
    const ranked = await rankImporters(paths, { names: new Set(["label"]), declared: new Set() });
    expect(ranked.bytes.get(join(root, "b.py"))).toBe(
      Buffer.byteLength("from pkg.core import label\nlabel('x')  # str\n"),
    );
  });

  it("a name the write declared tells them apart even when every importer mentions it; the smallest are asked first", async () => {
    expect(await rankImporters(paths, { names: new Set(["str"]), declared: new Set(["str"]) })).toMatchObject({
      ask: [join(root, "a.py"), join(root, "c.py"), join(root, "b.py")],
      leave: [],
    });
  });

  it("asks about none when the change is confined to the written module", async () => {
    expect(
      await rankImporters(paths, { names: new Set(["label"]), declared: new Set(["label"]), confined: true }),
    ).toMatchObject({ ask: [], leave: paths });
  });

  it("asks about all when no name tells them apart, and about none when no importer uses a telling name", async () => {
    expect(await rankImporters(paths, { names: new Set(["str"]), declared: new Set() })).toMatchObject({
      ask: [join(root, "a.py"), join(root, "c.py"), join(root, "b.py")],
      leave: [],
    });
    expect(await rankImporters(paths, { names: new Set(["benchUndefinedName"]), declared: new Set() })).toMatchObject({
      ask: [],
      leave: paths,
    });
  });
});

describe("openForAsks: the importers about to be asked about are open in the server while they are asked", () => {
  /** A session whose documents (the real DocumentSync) record what was opened and closed. */
  function recordingSession(alreadyOpen: readonly string[]): {
    session: LanguageServerSession;
    events: string[];
  } {
    const events: string[] = [];
    const connection = {
      sendNotification: (
        type: { method: string },
        params: { textDocument: { uri: string; languageId?: string; text?: string } },
      ) => {
        const name = params.textDocument.uri.split("/").pop();
        if (type.method === "textDocument/didOpen")
          events.push(`open ${name} ${params.textDocument.languageId} ${JSON.stringify(params.textDocument.text)}`);
        if (type.method === "textDocument/didClose") events.push(`close ${name}`);
        return Promise.resolve();
      },
    } as unknown as ProtocolConnection;
    const documents = new DocumentSync(
      (send) => void send(connection),
      () => ({}),
      () => false,
    );
    for (const path of alreadyOpen) documents.sync(path, "kept open", "python");
    events.splice(0);
    const session = { spec: { id: "python", languages: { ".py": "python" } }, documents };
    return { session: session as unknown as LanguageServerSession, events };
  }

  it("opens, with their text from disk, those the server does not have open, and closes only those", async () => {
    const root = fileTreeWith({ "a.py": "A = 1\n", "b.py": "B = 2\n" });
    const [a, b] = [join(root, "a.py"), join(root, "b.py")];
    const { session, events } = recordingSession([b]);
    const opened = await openForAsks(session, [a, b, join(root, "missing.py")]);
    expect(opened).toEqual([pathToFileURL(a).href]);
    closeOpenedForAsks(session, opened);
    expect(events).toEqual(['open a.py python "A = 1\\n"', "close a.py"]);
  });
});

describe("throughModuleGetattr: a module-level __getattr__ built from a changed name reaches the files that use that module as an object", () => {
  it("asks about an importer of that module that imports it as a module, not one that imports a name from it", async () => {
    const root = fileTreeWith({
      "pkg/core.py": "def label(name: str) -> str:\n    return name\n",
      "pkg/__init__.py": "from .core import label\n__getattr__ = label\n",
      "app/as_object.py": "import pkg\nX = pkg.anything\n",
      "app/named.py": "from pkg import something\n",
    });
    const files = ["pkg/core.py", "pkg/__init__.py", "app/as_object.py", "app/named.py"];
    const session = sessionAt(root);
    const importers = await importersToAskFirst(session, [join(root, "pkg/core.py")], reported(root, files), signal);
    const ranked = await rankImporters(importers, { names: new Set(["label"]), declared: new Set(["label"]) });
    expect(relative(root, ranked.ask)).toEqual(["pkg/__init__.py"]);
    const widened = await throughModuleGetattr(session, ranked, importers, signal);
    expect(relative(root, widened.ask)).toEqual(["app/as_object.py", "pkg/__init__.py"]);
    expect(relative(root, widened.leave)).toEqual(["app/named.py"]);
  });
});
