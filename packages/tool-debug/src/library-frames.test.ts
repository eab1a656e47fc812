import { describe, expect, it } from "vitest";
import { collapseLibraryFrames, standardLibrary } from "./library-frames.js";

describe("standardLibrary", () => {
  it("names Rust's std and core, Go's runtime and testing, libc start-up and Python's own library", () => {
    expect(
      standardLibrary(
        "<core::iter::adapters::map::Map<I,F> as core::iter::traits::iterator::Iterator>::fold",
        "/rustc/abc/library/core/src/iter/adapters/map.rs",
      ),
    ).toBe("core");
    expect(standardLibrary("std::rt::lang_start_internal", undefined)).toBe("std");
    expect(standardLibrary("runtime.goexit", "/usr/local/go/src/runtime/asm_amd64.s")).toBe("runtime");
    expect(standardLibrary("testing.tRunner", "/usr/local/go/src/testing/testing.go")).toBe("testing");
    expect(standardLibrary("__libc_start_main", undefined)).toBe("libc");
    expect(standardLibrary("__libc_start_call_main", "sysdeps/nptl/libc_start_call_main.h")).toBe("libc");
    expect(standardLibrary("main", undefined)).toBe("libc");
    expect(
      standardLibrary(
        "<&dyn core::ops::function::Fn<(), Output = i32> as core::ops::function::FnOnce<()>>::call_once",
        "/rustc/5980/library/core/src/ops/function.rs",
      ),
    ).toBe("core");
    expect(
      standardLibrary(
        "<i32 as core::iter::traits::accum::Sum>::sum",
        "/rustc/59807616/library/core/src/iter/traits/accum.rs",
      ),
    ).toBe("core");
    expect(standardLibrary("_run_code", "/usr/lib/python3.11/runpy.py")).toBe("python");
  });

  it("leaves the program's code and its dependencies alone", () => {
    expect(standardLibrary("rust_app::total", "/w/src/main.rs")).toBeUndefined();
    expect(standardLibrary("main.add", "/w/main.go")).toBeUndefined();
    expect(standardLibrary("main", "/w/main.c")).toBeUndefined();
    expect(standardLibrary("<rust_app::Point as core::fmt::Debug>::fmt", "/w/src/main.rs")).toBeUndefined();
    expect(standardLibrary("get", "/v/lib/python3.11/site-packages/requests/api.py")).toBeUndefined();
    expect(
      standardLibrary("serde::de::Deserialize::deserialize", "/root/.cargo/registry/src/x/serde/src/de.rs"),
    ).toBeUndefined();
  });
});

describe("collapseLibraryFrames", () => {
  it("collapses runs of two or more library frames, keeping single ones", () => {
    const frames = [
      "a::closure",
      "core::iter::fold",
      "core::iter::sum",
      "a::total",
      "std::rt::x",
      "a::main",
      "std::rt::lang_start",
      "std::rt::y",
      "__libc_start_main",
    ];
    const rows = collapseLibraryFrames(frames, (name) => ({
      name,
      path: name.startsWith("a::") ? "/w/src/main.rs" : undefined,
    }));
    expect(rows).toEqual([
      { frame: "a::closure" },
      { collapsed: ["core::iter::fold", "core::iter::sum"], libraries: ["core"] },
      { frame: "a::total" },
      { frame: "std::rt::x" },
      { frame: "a::main" },
      { collapsed: ["std::rt::lang_start", "std::rt::y", "__libc_start_main"], libraries: ["std", "libc"] },
    ]);
  });
});
