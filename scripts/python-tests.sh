#!/usr/bin/env bash
# The Python package (python/, the book's "From Python"): installed with `pip install .` into a
# fresh virtual environment, then its pytest suite run. pip fetches maturin (the build backend),
# pytest, PettingZoo, pandas and RLCard (whose RandomAgent plays through the adapter) from PyPI;
# where it cannot reach PyPI the step is skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
if ! "$venv/bin/pip" install --quiet maturin pytest pettingzoo pandas rlcard; then
    echo "python tests skipped: pip could not install maturin, pytest, pettingzoo, pandas and rlcard from PyPI"
    exit 0
fi
# The package's crate is left out of the root's `cargo clippy` (it needs a Python to build against).
PYO3_PYTHON="$venv/bin/python" cargo clippy --release -p bot-arena-python -- -D warnings
"$venv/bin/pip" install --quiet .
"$venv/bin/python" -m pytest -q -rxX python/tests
