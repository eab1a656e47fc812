# shellcheck shell=bash
# The fixture virtualenvs the tool-eval tests drive (sourced by .ci/run; `return`, never `exit`).
# Real CPython venvs from PyPI, made once into a cache outside the checkout and skipped when they
# already hold the pinned versions; the tests link a fixture project's `.venv` to one of them.
# RUNBOUND_EVAL_TEST_VENV: pandas 2 and matplotlib (most tests). RUNBOUND_EVAL_TEST_VENV_PANDAS3:
# pandas 3, whose classes report `__module__ == "pandas"`, so the table tests run on both majors.
runbound_eval_cache="${XDG_CACHE_HOME:-$HOME/.cache}/runbound"

# runbound_eval_make_venv <dir> <check expression> <pip requirement>...: (re)make the venv unless the
# check passes.
runbound_eval_make_venv() {
  local venv="$1" check="$2"
  shift 2
  if "${venv}/bin/python" -c "import sys; sys.exit(not (${check}))" >/dev/null 2>&1; then
    return 0
  fi
  echo "eval: installing $* into ${venv}"
  mkdir -p "$(dirname "${venv}")" || return 1
  python3 -m venv --clear "${venv}" || { echo "eval: python3 -m venv failed; install python3-venv"; return 1; }
  "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check "$@" || { echo "eval: pip install $* into ${venv} failed"; return 1; }
}

runbound_eval_pandas=2.3.3
runbound_eval_matplotlib=3.10.7
runbound_eval_make_venv "${runbound_eval_cache}/eval-venv" \
  "__import__('pandas').__version__ == '${runbound_eval_pandas}' and __import__('matplotlib').__version__ == '${runbound_eval_matplotlib}'" \
  "pandas==${runbound_eval_pandas}" "matplotlib==${runbound_eval_matplotlib}" wheel || return 1
export RUNBOUND_EVAL_TEST_VENV="${runbound_eval_cache}/eval-venv"

# pandas 3 needs CPython 3.11 or newer.
runbound_eval_pandas3=3.1.1
runbound_eval_make_venv "${runbound_eval_cache}/eval-venv-pandas3" \
  "__import__('pandas').__version__ == '${runbound_eval_pandas3}'" \
  "pandas==${runbound_eval_pandas3}" || return 1
export RUNBOUND_EVAL_TEST_VENV_PANDAS3="${runbound_eval_cache}/eval-venv-pandas3"
