#!/usr/bin/env bash
# Runs every check of the project: Rust (fmt, clippy, tests), the Python package built and
# installed into a virtual environment (ruff, mypy, stubtest, pytest against the installed
# package, parity against sacreBLEU 2.6.0 on ../shared/data when it is there).
#
#   bash scripts/test.sh            # uses ./.venv, creating it if needed
#   VENV=/tmp/v bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"

echo "== install (builds the Rust extension in release mode)"
"$PY" -m pip install -q --upgrade pip
"$PY" -m pip install -q ".[test,dev]"

echo "== rust: fmt, clippy, tests"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test -q -p rapidbleu-core

echo "== python: ruff, mypy, stubtest"
"$VENV/bin/ruff" check python tests benchmarks scripts
"$VENV/bin/ruff" format --check python tests benchmarks scripts
"$VENV/bin/mypy"
"$PY" -m mypy.stubtest rapidbleu._core

echo "== pytest (against the installed package) and doctests"
# Run from a temporary directory so that `import rapidbleu` finds the installed package,
# not the source tree (which has no compiled extension).
REPO=$PWD
cd "$(mktemp -d)"
case "$VENV" in /*) PYBIN="$VENV/bin/python" ;; *) PYBIN="$REPO/$VENV/bin/python" ;; esac
"$PYBIN" -m pytest -p no:cacheprovider -c "$REPO/pyproject.toml" --rootdir "$REPO" \
    "$REPO/tests" "$@"
"$PYBIN" -m pytest -p no:cacheprovider -q --doctest-modules --pyargs rapidbleu
