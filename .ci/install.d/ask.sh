# shellcheck shell=bash
# tmux, which the tool-ask tests use to drive the terminal port in a real pseudo-terminal (sourced by
# .ci/run; `return`, never `exit`). A Debian package, installed only when missing.
if ! command -v tmux >/dev/null 2>&1; then
  echo "ask: installing tmux"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; } || { echo "ask: apt-get install tmux failed"; return 1; }
fi
