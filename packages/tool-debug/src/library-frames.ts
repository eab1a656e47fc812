/**
 * The standard library or runtime a frame belongs to (`std`, `core`, `runtime`, `testing`, `libc`,
 * `python`), or undefined for the program's own code and its dependencies: runs of such frames are
 * collapsed in `stack` (issue 26: 29 std frames of a Rust stack took 4.3 KB).
 */
export function standardLibrary(name: string, path: string | undefined): string | undefined {
  // Rust: `std::rt::lang_start`, `<core::iter::Map<I,F> as Iterator>::fold`, `core::ops::function::FnOnce::call_once`.
  const rust = /^<?&?(?:dyn )?(std|core|alloc|test|panic_unwind)::/.exec(name);
  if (rust !== null) return rust[1];
  // The toolchain's sources as rustc records them (`/rustc/<commit>/library/core/src/…`) or rustup installs them.
  const rustPath =
    path === undefined ? null : /(?:\/rustc\/[0-9a-f]+|\/rustlib\/src\/rust)\/library\/(\w+)\//.exec(path);
  if (rustPath !== null) return rustPath[1];
  if (/^__rust_|^rust_begin_unwind$/.test(name)) return "std";
  // Go: the runtime and the test harness (`runtime.goexit`, `testing.tRunner`).
  const go = /^(runtime|testing|reflect|syscall)\./.exec(name);
  if (go !== null) return go[1];
  // C: the C library's start-up (glibc's own relative paths, or none), and the `main` shim Rust
  // generates, which has no source.
  if (
    /^(__libc_start_main(_impl)?|__libc_start_call_main|_start|start_thread|clone3?)$/.test(name) ||
    (name === "main" && path === undefined)
  )
    return "libc";
  // Python: the interpreter's own library (runpy, unittest) shown with just_my_code false; site-packages are dependencies.
  if (path !== undefined && /\/lib\/python3\.\d+\//.test(path) && !path.includes("-packages/")) return "python";
  return undefined;
}

/** A stack row: a frame shown, or a run of standard-library frames collapsed into one line. */
export type StackRow<F> = { frame: F } | { collapsed: F[]; libraries: string[] };

/** The frames with every run of two or more standard-library frames collapsed into one row. */
export function collapseLibraryFrames<F>(
  frames: readonly F[],
  describe: (frame: F) => { name: string; path: string | undefined },
): Array<StackRow<F>> {
  const rows: Array<StackRow<F>> = [];
  let run: Array<{ frame: F; library: string }> = [];
  const flush = (): void => {
    if (run.length >= 2)
      rows.push({ collapsed: run.map((item) => item.frame), libraries: [...new Set(run.map((item) => item.library))] });
    else rows.push(...run.map((item) => ({ frame: item.frame })));
    run = [];
  };
  for (const frame of frames) {
    const { name, path } = describe(frame);
    const library = standardLibrary(name, path);
    if (library === undefined) {
      flush();
      rows.push({ frame });
    } else run.push({ frame, library });
  }
  flush();
  return rows;
}
