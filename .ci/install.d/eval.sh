# shellcheck shell=bash
# The fixture virtualenv the tool-eval tests drive (sourced by .ci/run; `return`, never `exit`).
# A real CPython venv with pandas and matplotlib from PyPI, made once into a cache outside the
# checkout; the tests link a fixture project's `.venv` to it. RUNBOUND_EVAL_TEST_VENV names it.
runbound_eval_venv="${XDG_CACHE_HOME:-$HOME/.cache}/runbound/eval-venv"
runbound_eval_pandas=2.3.3
runbound_eval_matplotlib=3.10.7
if ! "${runbound_eval_venv}/bin/python" -c "import pandas, matplotlib, sys; sys.exit(pandas.__version__ != '${runbound_eval_pandas}' or matplotlib.__version__ != '${runbound_eval_matplotlib}')" >/dev/null 2>&1; then
  echo "eval: installing pandas ${runbound_eval_pandas} and matplotlib ${runbound_eval_matplotlib} into ${runbound_eval_venv}"
  mkdir -p "$(dirname "${runbound_eval_venv}")" || return 1
  python3 -m venv "${runbound_eval_venv}" || { echo "eval: python3 -m venv failed; install python3-venv"; return 1; }
  "${runbound_eval_venv}/bin/python" -m pip install --quiet --disable-pip-version-check \
    "pandas==${runbound_eval_pandas}" "matplotlib==${runbound_eval_matplotlib}" wheel || { echo "eval: pip install pandas matplotlib failed"; return 1; }
fi
export RUNBOUND_EVAL_TEST_VENV="${runbound_eval_venv}"
