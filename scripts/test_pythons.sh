#!/usr/bin/env bash
# Every supported CPython: the abi3 wheel that scripts/test.sh built (target/wheels-test/) is
# installed into a fresh virtual environment of each CPython beside the main suite's 3.11
# (3.10, 3.12, 3.13 by default: pyproject.toml's classifiers say the same), next to the oracles
# at the test extra's pins, and each runs scripts/smoke_wheel.py and the parity subset below.
# scripts/test.sh calls it after the main pytest run; it also runs on its own:
#
#   bash scripts/test_pythons.sh                      # the wheel in target/wheels-test/
#   PYTHONS="3.13" bash scripts/test_pythons.sh       # one version
#
# The interpreters come from pyenv (~/.pyenv/versions/3.X.*: this machine and CI's have them),
# else from PATH (python3.X: Debian's, or uv's `uv python install 3.X` where GitHub is reachable).
# A missing one stops the run, naming it: an untested version is never passed over in silence.
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${DIST:-target/wheels-test}
PYTHONS=${PYTHONS:-3.10 3.12 3.13}
ROOT=${PYTHONS_VENVS:-target/pythons}
REPO=$PWD

# The parity subset: parity of BLEU (MeCab's Japanese and Korean included), chrF, TER and
# ROUGE with sacreBLEU 2.6.0 and rouge-score 0.1.2 installed beside it, on generated input
# (hypothesis, a tenth of the main suite's examples) and real text; the command's smoke tests;
# the first-day API. A file that moved is an error ("file or directory not found").
TESTS=(
    tests/bleu/test_parity_bleu.py
    tests/chrf/test_chrf_parity.py
    tests/ter/test_ter_parity.py
    tests/rouge/test_rouge_parity.py
    tests/cli/test_cli_command.py
    tests/cli/test_first_day_cli.py
    tests/api/test_first_day_api.py
)
# tests/bleu/test_golden.py holds sacreBLEU's scores as computed on CPython 3.11, whose sum()
# adds floats left to right; 3.12 made sum() compensated (Neumaier), which moves the last bit
# of ~50 of its sentence scores, in sacreBLEU as in rapidbleu (tests/bleu/test_summation.py):
# it runs where sum() is 3.11's, and live parity covers the rest.
GOLDEN=tests/bleu/test_golden.py
# Left to the main suite (3.11), to stay within a few minutes: fast-bleu (a C++ sdist), the
# golden file's live re-runs of sacreBLEU on whole WMT17 files, and rouge-score on the longest
# documents (its stored scores and the other real documents run).
DESELECT="not test_finding_2_fast_bleu_fixed_equals_fast_bleu_where_it_is_defined"
DESELECT+=" and not test_wmt17_live and not wmt22.zh-en/hyp.NiuTrans.en"
export RAPIDBLEU_TEST_SCALE=${RAPIDBLEU_TEST_SCALE:-0.1}

ABI3=$(ls "$DIST"/rapidbleu-*-cp310-abi3-*.whl)
# A version-specific wheel (cp312-cp312, ...) is tested on its version when the build made one.
wheel_for() {
    local tag="cp${1/./}"
    compgen -G "$DIST/rapidbleu-*-$tag-$tag-*.whl" || echo "$ABI3"
}
# The oracles at the pins of pyproject.toml's test extra (one place for them), and the tools
# (pytest, hypothesis) at its bounds; regex (sacreBLEU's intl tokenizer) at its pin where the
# interpreter has it: regex 2026.11.15 needs CPython >= 3.11, so 3.10 gets its newest.
mapfile -t PINS < <("${PY:-python3}" - <<'EOF'
import re, tomllib
extra = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]
for req in extra:
    if re.split(r"[<>=!~\[ ]", req, maxsplit=1)[0].lower() in {
        "pytest", "hypothesis", "sacrebleu", "nltk", "rouge-score", "regex"
    }:
        print(req)
EOF
)
echo "oracles: ${PINS[*]}"

find_python() {
    local v=$1 p
    for p in "$HOME"/.pyenv/versions/"$v".*/bin/python"$v"; do
        [ -x "$p" ] && { echo "$p"; return; }
    done
    command -v "python$v" || true
}

for v in $PYTHONS; do
    PYV=$(find_python "$v")
    if [ -z "$PYV" ]; then
        echo "scripts/test_pythons.sh: no CPython $v (pyenv install $v, or python$v on PATH)" >&2
        exit 1
    fi
    WHEEL=$(wheel_for "$v")
    echo "== CPython $v: $PYV, $WHEEL"
    VENV="$ROOT/$v"
    rm -rf "$VENV"
    "$PYV" -m venv "$VENV"
    pins=("${PINS[@]}")
    if "$PYV" -c 'import sys; sys.exit(sys.version_info >= (3, 11))'; then
        pins=("${pins[@]/#regex==*/regex}")
    fi
    VPY="$REPO/$VENV/bin/python"
    # 3.10's bundled pip 23.0 would install the MeCab dictionaries by `setup.py install`.
    "$VPY" -m pip install -q --progress-bar off --disable-pip-version-check --upgrade pip
    "$VPY" -m pip install -q --progress-bar off --disable-pip-version-check \
        --only-binary rapidbleu "${WHEEL}[ja,ko]" "${pins[@]}"
    "$VPY" -m pip list --disable-pip-version-check 2>/dev/null | tr -s ' ' |
        grep -iE '^(sacrebleu|rouge.score|nltk|regex|numpy|hypothesis|mecab.*) ' | paste -sd ';'
    tests=("${TESTS[@]}")
    "$VPY" -c 'import sys; sys.exit(sys.version_info >= (3, 12))' && tests+=("$GOLDEN")
    # From a temporary directory, as scripts/test.sh does: rapidbleu is the installed wheel.
    (
        cd "$(mktemp -d)"
        "$VPY" "$REPO/scripts/smoke_wheel.py" | tail -n 1
        "$VPY" -m pytest -p no:cacheprovider -q -c "$REPO/pyproject.toml" --rootdir "$REPO" \
            -k "$DESELECT" "${tests[@]/#/$REPO/}"
    )
done
