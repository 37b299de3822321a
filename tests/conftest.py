"""Shared fixtures and helpers for rapidbleu's tests.

The oracle is always the installed sacreBLEU 2.6.0; results are compared with ``==``.

Helpers (import them with ``from conftest import ...``; pytest puts ``tests/`` on ``sys.path``):

- :data:`DATA`: the real WMT data: ``$RAPIDBLEU_DATA``, else ``../shared/data`` when present,
  else the subset shipped in ``tests/data``.
- :func:`read_lines`: reads a data file as the golden vectors' ``api`` calls did.
- :func:`strip_version`: rapidbleu's signature version field -> sacreBLEU's.
- :func:`examples`: scales hypothesis' ``max_examples`` (``$RAPIDBLEU_TEST_SCALE``).
- :func:`assert_same_score`: every field of a ``BLEUScore`` equal to sacreBLEU's.
- :func:`corpora`, :data:`PIECES`, ...: hypothesis strategies for nasty corpora.
- :func:`seeded`: settings for a hypothesis test defined inside a parametrized test.

Hypothesis profiles: ``ci`` (the default: derandomized, so every run draws the same examples,
and no example database) and ``dev`` (random, with the database, for hunting bugs:
``HYPOTHESIS_PROFILE=dev RAPIDBLEU_TEST_SCALE=10 pytest``).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st

#: Third-party test files kept byte for byte (tests/upstream/*/README.md); each is run through
#: a harness module in tests/ instead of being collected by itself.
collect_ignore_glob = ["upstream/*"]

#: The full real MT data beside the repository (``../shared/data``), used when present.
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: The compact subset shipped in the repository (``tests/data``), so that a clone runs every test.
SUBSET_DATA = Path(__file__).resolve().parent / "data"


def _data_dir() -> Path:
    """``$RAPIDBLEU_DATA``, else ``../shared/data`` when it is there, else ``tests/data``."""
    if os.environ.get("RAPIDBLEU_DATA"):
        return Path(os.environ["RAPIDBLEU_DATA"])
    if (SHARED_DATA / "golden.jsonl").is_file():
        return SHARED_DATA
    return SUBSET_DATA


#: The real MT data: $RAPIDBLEU_DATA, the full ../shared/data, or the subset in tests/data.
DATA = _data_dir()

#: sacreBLEU's signature version, which rapidbleu extends to ``2.6.0+rapidbleu.X.Y.Z``.
SACREBLEU_VERSION = "2.6.0"

_VERSION_RE = re.compile(r"2\.6\.0\+rapidbleu\.[0-9A-Za-z.]*[0-9A-Za-z]")

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(n: int) -> int:
    """``n`` hypothesis examples, times ``$RAPIDBLEU_TEST_SCALE`` (default 1; may be < 1)."""
    scale = float(os.environ.get("RAPIDBLEU_TEST_SCALE", "1"))
    return max(1, round(n * scale))


def strip_version(text: str) -> str:
    """Replaces rapidbleu's signature version ``2.6.0+rapidbleu.X.Y.Z`` with sacreBLEU's ``2.6.0``.

    Works on signatures (long and short), score lines and JSON output alike.

    >>> strip_version("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+rapidbleu.0.1.0")
    'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'
    """
    return _VERSION_RE.sub(SACREBLEU_VERSION, str(text))


def read_lines(path: Path | str) -> list[str]:
    """Reads a data file the way the golden vectors' ``api`` calls were made.

    UTF-8, ``newline="\\n"`` (a lone ``\\r`` or U+2028 stays inside its line, as in sacreBLEU's
    ``smart_open``), one segment per line with only the line feed removed. Whether lines are
    also ``rstrip()``-ed (as the sacreBLEU CLI does) does not change any score: BLEU's
    ``_preprocess_segment`` rstrips every segment and the MeCab tokenizers strip; the golden
    scores match either way (checked on every BLEU golden line), so the text is kept as is.
    """
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The real WMT data folder; skips the test when it is absent."""
    if not (DATA / "golden.jsonl").is_file():
        pytest.skip(
            f"real MT test data not found at {DATA} (set RAPIDBLEU_DATA to the folder that "
            "holds golden.jsonl and the wmt*/ folders)"
        )
    return DATA


def has_module(name: str) -> bool:
    """Whether ``name`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


#: The attributes of a BLEUScore that must equal sacreBLEU's.
SCORE_FIELDS = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")


def score_fields(s: Any) -> dict[str, Any]:
    """The comparable fields of a BLEUScore, with types normalised only where it is harmless.

    Lists stay lists (``counts``/``totals`` may hold floats after add-k with a float k, as in
    sacreBLEU); numbers are compared with ``==`` and their types with :func:`type_tags`.
    """
    return {k: getattr(s, k) for k in SCORE_FIELDS} | {
        "ratio": s.ratio,
        "format": s.format(),
        "str": str(s),
    }


def assert_same_score(ours: Any, theirs: Any, context: str = "") -> None:
    """Asserts that a rapidbleu BLEUScore equals sacreBLEU's, field by field, with ``==``.

    Also checks the Python types users see: ``score`` and ``bp`` are ``float``, the lengths
    ``int`` (not NumPy scalars).
    """
    a, b = score_fields(ours), score_fields(theirs)
    diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
    assert not diff, f"{context}: rapidbleu != sacreBLEU in {sorted(diff)}: " + "; ".join(
        f"{k}: {x!r} != {y!r}" for k, (x, y) in diff.items()
    )
    for k, t in (("score", float), ("bp", float), ("sys_len", int), ("ref_len", int)):
        assert type(getattr(ours, k)) is type(getattr(theirs, k)) is t, (
            f"{context}: type of {k}: rapidbleu {type(getattr(ours, k)).__name__}, "
            f"sacreBLEU {type(getattr(theirs, k)).__name__}"
        )


# --- hypothesis strategies ------------------------------------------------------------------

#: References as sacreBLEU takes them: streams, each with one entry (str or None) per segment.
Refs = list[list[Optional[str]]]

#: Any code point but the surrogates (which are not valid text).
ANY_CHAR = st.characters(blacklist_categories=("Cs",))

#: Pieces of text that some part of the pipeline treats specially.
PIECES = [
    # ASCII punctuation, digits and what 13a / intl do with them
    *".,-",
    *"!?;:'\"()[]{}<>/\\@#$%^&*+=_|~`",
    *"0123456789",
    "1,000.5",
    "1990.",
    "3-4",
    "a.b",
    "...",
    "--",
    ".5",
    "5.",
    "a,b",
    "U.S.",
    # entities and markup (13a unescapes when the line has '&')
    "&quot;",
    "&amp;lt;",
    "&amp;",
    "&lt;",
    "&gt;",
    "&apos;",
    "&#39;",
    "&",
    "<skipped>",
    "<SKIPPED>",
    # CJK, fullwidth, Hangul, kana, astral ideographs and the zh range bug (issue #298)
    "中",
    "文",
    "。",
    "，",
    "「",
    "」",
    "日本語",
    "한국어",
    "カタカナ",
    "１２",
    "Ａ",
    "\u3000",
    "…",
    "—",
    "–",
    "“",
    "”",
    "‘",
    "’",
    "€",
    "\u2a6d",
    "\u2a6e",
    "\U00020000",
    "\u4e00\u9fa5",
    # combining marks, RTL, bidi controls
    "\u0301",
    "e\u0301",
    "\u0308",
    "\u0345",
    "שלום",
    "مرحبا",
    "\u200f",
    "\u200e",
    "\u202e",
    # control characters and whitespace of every kind (str.split() and not)
    "\x00",
    "\x01",
    "\x1b",
    "\x7f",
    "\x85",
    "\x1c",
    "\x1f",
    "\x0b",
    "\x0c",
    "\r",
    "\n",
    "-\n",
    "\t",
    "\xa0",
    "\u1680",
    "\u2000",
    "\u200a",
    "\u200b",
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\ufeff",
    "\u180e",
    # case: lowercase changes lengths (İ), final sigma, special casings
    "İ",
    "I",
    "ı",
    "ΣΑΣ",
    "ΟΔΟΣ",
    "Σ",
    "ς",
    "ẞ",
    "ß",
    "ǅ",
    "ﬁ",
    "\u212a",
    "Å",
    "ᾈ",
    "The",
    "the",
    "THE",
    "cat",
    "Cat",
    "a",
    "A",
    "mat",
    "sat",
    # astral symbols (regex's Unicode tables are newer than Python's), noncharacters
    "😀",
    "👍🏽",
    "\U0001faea",
    "\U0010ffff",
    "\uffff",
]
#: A "word": one to four pieces or arbitrary characters glued together.
WORD = st.lists(st.one_of(st.sampled_from(PIECES), ANY_CHAR), min_size=1, max_size=4).map("".join)
#: Separators between words: mostly spaces, sometimes other whitespace or nothing.
SEP = st.sampled_from([" ", " ", " ", " ", "  ", "\t", "\xa0", "\u3000", "\u200b", "", "\n"])
#: Arbitrary Unicode text.
FREE_TEXT = st.text(ANY_CHAR, max_size=40)


@st.composite
def corpora(
    draw: Callable[..., Any],
    nrefs: int,
    allow_none: bool = True,
    min_segments: int = 1,
    max_segments: int = 5,
) -> tuple[list[str], Refs]:
    """A corpus: hypotheses and ``nrefs`` reference streams of the same length.

    Segments are mostly drawn from a small per-corpus vocabulary so that n-grams match, with
    free Unicode text, empty strings and exact copies of the hypothesis mixed in. With several
    streams, entries may be ``None`` (a missing reference), never all of a segment's (sacreBLEU
    fails on such a segment, rapidbleu raises MissingReferenceError).
    """
    vocab = draw(st.lists(WORD, min_size=1, max_size=8))

    def from_vocab() -> str:
        toks = draw(st.lists(st.sampled_from(vocab), max_size=12))
        seps = draw(st.lists(SEP, min_size=len(toks) + 1, max_size=len(toks) + 1))
        return "".join(s + t for s, t in zip(seps, [*toks, ""]))

    def segment(hyp: str | None = None) -> str:
        kind = draw(st.integers(0, 9))
        if kind == 0:
            return draw(FREE_TEXT)
        if kind == 1:
            return ""
        if kind == 2 and hyp is not None:
            return hyp
        return from_vocab()

    n = draw(st.integers(min_segments, max_segments))
    hyps = [segment() for _ in range(n)]
    refs: Refs = []
    for _ in range(nrefs):
        stream: list[str | None] = []
        for i in range(n):
            missing = allow_none and nrefs > 1 and draw(st.integers(0, 4)) == 0
            stream.append(None if missing else segment(hyps[i]))
        refs.append(stream)
    for i in range(n):  # every segment keeps at least one reference
        if all(r[i] is None for r in refs):
            refs[draw(st.integers(0, nrefs - 1))][i] = segment(hyps[i])
    return hyps, refs


def seeded(name: str, max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Settings for a @given test: ``examples(max_examples)``, and a stable seed of its own.

    Derandomized hypothesis derives its seed from the test function, so the inner @given
    functions of a parametrized test would all draw the same examples; a seed from ``name``
    (under the derandomized ``ci`` profile only) gives every parameter its own examples.
    """

    def wrap(f: Callable[..., None]) -> Callable[..., None]:
        f = settings(max_examples=examples(max_examples))(f)
        if settings.default.derandomize:
            f = seed(zlib.crc32(name.encode()))(f)
        return f

    return wrap


@pytest.fixture(scope="module")
def quiet_logs() -> Iterator[None]:
    """Silences the sacrebleu and rapidbleu loggers below ERROR for a test module."""
    loggers = [logging.getLogger(n) for n in ("sacrebleu", "rapidbleu")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    yield
    for lg, level in zip(loggers, levels):
        lg.setLevel(level)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Prints how many inputs each fuzzing family tried, and what became of them.

    See ``tests/fuzzstats.py``: property, differential and state-machine tests record every
    input; ``differed`` and ``crashed`` inputs have also failed their tests.
    """
    from fuzzstats import summary_lines

    lines = summary_lines()
    if lines:
        terminalreporter.section("fuzzing: inputs tried per family")
        for line in lines:
            terminalreporter.write_line(line)
