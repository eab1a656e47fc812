import { describe, expect, it } from "vitest";
import {
  indexOfflinePackages,
  normalizePackageName,
  parseWheelFileName,
  planInstall,
  requirementName,
  type LockFile,
} from "./offline-packages.js";

const lock: LockFile = {
  packages: {
    numpy: {
      name: "numpy",
      version: "2.4.6",
      file_name: "numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
      depends: [],
    },
    pandas: {
      name: "pandas",
      version: "3.0.2",
      file_name: "pandas-3.0.2-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
      depends: ["numpy", "python-dateutil"],
    },
    "python-dateutil": {
      name: "python-dateutil",
      version: "2.9.0",
      file_name: "https://example.invalid/python_dateutil-2.9.0-py2.py3-none-any.whl",
      depends: ["six"],
    },
    six: { name: "six", version: "1.17.0", file_name: "six-1.17.0-py2.py3-none-any.whl", depends: ["python-dateutil"] },
    scipy: { name: "scipy", version: "1.18.0", file_name: "scipy-1.18.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl" },
  },
};

describe("normalizePackageName", () => {
  it.each([
    ["Foo_Bar", "foo-bar"],
    ["foo.bar", "foo-bar"],
    ["foo--_.bar", "foo-bar"],
    ["PyYAML", "pyyaml"],
  ])("%s → %s", (name, normalized) => expect(normalizePackageName(name)).toBe(normalized));
});

describe("parseWheelFileName", () => {
  it("reads the name and version, with or without a build tag", () => {
    expect(parseWheelFileName("Eval_Hello-0.1.0-py3-none-any.whl")).toEqual({ name: "eval-hello", version: "0.1.0" });
    expect(parseWheelFileName("a-1-py3-none-any.whl")).toEqual({ name: "a", version: "1" });
    expect(parseWheelFileName("ab-10.2-12b-cp314-cp314-pyemscripten_2026_0_wasm32.whl")).toEqual({
      name: "ab",
      version: "10.2",
    });
    expect(parseWheelFileName("demo-1.2-7-py3-none-any.whl")).toEqual({ name: "demo", version: "1.2" });
    expect(parseWheelFileName("numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl")).toEqual({
      name: "numpy",
      version: "2.4.6",
    });
  });

  it.each([
    "README.md",
    "demo-1.0.tar.gz",
    "demo-1.0-py3-none.whl",
    "-1.0-py3-none-any.whl",
    "demo_-1.0-py3-none-any.whl",
    "x/demo-1.0-py3-none-any.whl",
    "demo-1.0-py3-none-any.whl.partial",
    "demo--py3-none-any.whl",
    "demo-1.0--none-any.whl",
    "demo-1.0-py3--any.whl",
    "demo-1.0-py3-none-.whl",
  ])("is undefined for %s", (fileName) => {
    expect(parseWheelFileName(fileName)).toBeUndefined();
  });
});

describe("indexOfflinePackages", () => {
  it("lists lock entries whose wheel is present, then loose wheels, a lock entry winning over a loose wheel", () => {
    const index = indexOfflinePackages(
      [
        "numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
        "python_dateutil-2.9.0-py2.py3-none-any.whl",
        "numpy-1.0-py3-none-any.whl",
        "zed-0.1-py3-none-any.whl",
        "notes.txt",
      ],
      lock,
    );
    expect([...index.values()]).toEqual([
      {
        name: "numpy",
        version: "2.4.6",
        fileName: "numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
        depends: [],
      },
      {
        name: "python-dateutil",
        version: "2.9.0",
        fileName: "python_dateutil-2.9.0-py2.py3-none-any.whl",
        depends: ["six"],
      },
      { name: "zed", version: "0.1", fileName: "zed-0.1-py3-none-any.whl", depends: [] },
    ]);
  });

  it("gives a lock entry without dependencies an empty list", () => {
    expect(
      indexOfflinePackages(["scipy-1.18.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl"], lock).get("scipy")?.depends,
    ).toEqual([]);
  });

  it("works without a lock and for an empty folder", () => {
    expect([...indexOfflinePackages(["b-2-py3-none-any.whl", "a-1-py3-none-any.whl"], undefined).keys()]).toEqual([
      "a",
      "b",
    ]);
    expect(indexOfflinePackages([], lock).size).toBe(0);
  });
});

describe("requirementName", () => {
  it.each([
    ["Foo", "foo"],
    ["foo==1.0", "foo"],
    ["foo>=1", "foo"],
    ["foo<2", "foo"],
    ["foo!=1", "foo"],
    ["foo~=1.4", "foo"],
    ["foo[extra]", "foo"],
    ["foo; python_version > '3'", "foo"],
    ["foo @ file:///x.whl", "foo"],
    ["Foo_Bar", "foo-bar"],
  ])("%s → %s", (requirement, name) => expect(requirementName(requirement)).toBe(name));
});

describe("planInstall", () => {
  const everything = indexOfflinePackages(
    [
      "numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
      "pandas-3.0.2-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
      "python_dateutil-2.9.0-py2.py3-none-any.whl",
      "six-1.17.0-py2.py3-none-any.whl",
    ],
    lock,
  );

  it("puts dependencies first, each package once, through a dependency cycle", () => {
    expect(planInstall(["pandas>=3", "six"], everything, "/wheels").map((entry) => entry.name)).toEqual([
      "numpy",
      "six",
      "python-dateutil",
      "pandas",
    ]);
  });

  it("names a missing package, what is available and the folder to put it in", () => {
    expect(() => planInstall(["requests"], everything, "/wheels")).toThrow(
      "The package `requests` is not available offline: the Pyodide kernel never downloads packages. Available: numpy 2.4.6, pandas 3.0.2, python-dateutil 2.9.0, six 1.17.0. To install it, put its Pyodide wheel in `/wheels`.",
    );
  });

  it("names the package that needed a missing dependency", () => {
    const withoutSix = indexOfflinePackages(["python_dateutil-2.9.0-py2.py3-none-any.whl"], lock);
    expect(() => planInstall(["python-dateutil"], withoutSix, "/wheels")).toThrow(
      "The package `six` (needed by `python-dateutil`) is not available offline: the Pyodide kernel never downloads packages. Available: python-dateutil 2.9.0.",
    );
  });

  it("lists what is available in alphabetical order", () => {
    const mixed = indexOfflinePackages(
      ["numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl", "attrs-25.1.0-py3-none-any.whl"],
      lock,
    );
    expect(() => planInstall(["requests"], mixed, "/wheels")).toThrow("Available: attrs 25.1.0, numpy 2.4.6.");
  });

  it("says when the kernel has no package directory at all", () => {
    expect(() => planInstall(["attrs"], new Map(), undefined)).toThrow(
      "The package `attrs` is not available offline: the Pyodide kernel never downloads packages. Available: none. To install it, this kernel was started without a package directory; start it with one that holds the wheel.",
    );
  });
});
