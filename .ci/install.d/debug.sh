# shellcheck shell=bash
# Debug adapters the tool-debug tests drive (sourced by .ci/run; `return`, never `exit`).
# Each is installed only when missing; caches live outside the checkout so a second run skips them.
#   debugpy  PyPI, into a cached virtualenv with pytest (test mode); RUNBOUND_DEBUGPY_PYTHON names its interpreter
#   lldb     Debian's lldb-16 (adapter lldb-vscode-16)
#   dlv      go install from the Go module proxy, pinned to a version that builds with Go 1.26
#   cargo    checked only: the lldb tests build a Rust fixture crate (no dependencies, offline)
runbound_debug_cache="${XDG_CACHE_HOME:-$HOME/.cache}/runbound"
runbound_debugpy_version=1.8.17
runbound_delve_version=v1.27.2
runbound_pytest_version=8.3.5

runbound_debugpy_venv="${runbound_debug_cache}/debugpy-venv"
if ! "${runbound_debugpy_venv}/bin/python" -c "import debugpy, pytest, sys; sys.exit(debugpy.__version__ != '${runbound_debugpy_version}' or pytest.__version__ != '${runbound_pytest_version}')" >/dev/null 2>&1; then
  echo "debug: installing debugpy ${runbound_debugpy_version} and pytest ${runbound_pytest_version} into ${runbound_debugpy_venv}"
  mkdir -p "${runbound_debug_cache}" || return 1
  [ -x "${runbound_debugpy_venv}/bin/python" ] || python3 -m venv "${runbound_debugpy_venv}" || { echo "debug: python3 -m venv failed; install python3-venv"; return 1; }
  "${runbound_debugpy_venv}/bin/python" -m pip install --quiet --disable-pip-version-check "debugpy==${runbound_debugpy_version}" "pytest==${runbound_pytest_version}" || { echo "debug: pip install debugpy pytest failed"; return 1; }
fi
export RUNBOUND_DEBUGPY_PYTHON="${runbound_debugpy_venv}/bin/python"

if ! command -v lldb-vscode-16 >/dev/null 2>&1 && ! command -v lldb-dap >/dev/null 2>&1; then
  echo "debug: installing lldb-16"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lldb-16; } || { echo "debug: apt-get install lldb-16 failed"; return 1; }
fi

if ! command -v go >/dev/null 2>&1; then
  echo "debug: go is not on PATH; dlv needs Go 1.26 or newer."
  return 1
fi
runbound_go_bin=$(go env GOBIN)
[ -n "$runbound_go_bin" ] || runbound_go_bin="$(go env GOPATH | cut -d: -f1)/bin"
case ":${PATH}:" in *":${runbound_go_bin}:"*) ;; *) export PATH="${runbound_go_bin}:${PATH}" ;; esac
if ! go version -m "${runbound_go_bin}/dlv" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/go-delve/delve[[:space:]]+${runbound_delve_version}[[:space:]]"; then
  echo "debug: installing dlv ${runbound_delve_version}"
  go install "github.com/go-delve/delve/cmd/dlv@${runbound_delve_version}" || { echo "debug: go install dlv failed"; return 1; }
fi

# rustup puts cargo in ~/.cargo/bin, which a non-login shell may not have on PATH.
if ! command -v cargo >/dev/null 2>&1 && [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
  export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:${PATH}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "debug: cargo is not on PATH; the lldb tests build a Rust fixture with it. Install Rust (rustup or Debian's cargo)."
  return 1
fi
