# shellcheck shell=bash
# The Rust toolchain the native ast-grep engine (packages/astgrep-engine) is built with (sourced by
# .ci/run; `return`, never `exit`). Checked only, not installed: install Rust 1.90 or newer with
# rustup. `npm ci` already built the engine; fetching the locked crates here keeps a later
# `npm run build` from downloading (a no-op once they are in cargo's cache).
if ! command -v cargo >/dev/null 2>&1 && [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
  export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:${PATH}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "astgrep-engine: cargo is not on PATH; the native engine is built with it. Install Rust 1.90 or newer (https://rustup.rs)."
  return 1
fi
echo "astgrep-engine: $(cargo --version)"
cargo fetch --locked --quiet --manifest-path packages/astgrep-engine/Cargo.toml || { echo "astgrep-engine: cargo fetch --locked failed; is Cargo.lock in sync with Cargo.toml?"; return 1; }
