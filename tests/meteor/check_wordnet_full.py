"""The full check of the core's WordNet, stemmer and lowercasing against NLTK 3.10.4 and
Python: every lemma of WordNet's index (each of ``index.noun/verb/adj/adv``), every form of
the exception lists, five inflections of every index lemma, and every Unicode code point (as a
one-character word, for ``str.lower()``), through the core's ``meteor words`` example.

    .venv/bin/python scripts/wordnet_data.py
    .venv/bin/python tests/meteor/check_wordnet_full.py [--quick]

For each word: ``{l.name() for s in wordnet.synsets(w) for l in s.lemmas()}`` (count and
hash), NLTK's ``_morphy(w.lower(), pos)`` for every part of speech, ``PorterStemmer().stem(w)``
and ``w.lower()``. Prints the number of words compared and every difference (at most 20);
exit status 1 on any difference. ``--quick`` checks every 20th word. Takes a few minutes
(NLTK's side).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import nltk  # noqa: E402
import wordnet_data  # noqa: E402

CORPUS = wordnet_data.build()
nltk.data.path.insert(0, str(CORPUS.parent.parent))

from nltk.corpus import wordnet as wn  # noqa: E402
from nltk.stem.porter import PorterStemmer  # noqa: E402

POS = ("n", "v", "a", "r")


def fnv(names: list[str]) -> str:
    h = 0xCBF29CE484222325
    for b in "\n".join(sorted(names)).encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%012x" % (h >> 16)


def expected(w: str, ps: PorterStemmer, with_wordnet: bool) -> str:
    low = w.lower()
    if with_wordnet:
        names = sorted({lem.name() for s in wn.synsets(w) for lem in s.lemmas()})
        forms = [wn._morphy(low, p) for p in POS]
        parts = "".join(p + ":" + ",".join(f) + ";" for p, f in zip(POS, forms))
        head = f"{len(names)}\t{fnv(names)}\t{sum(map(len, forms))}\t{fnv([parts])}"
    else:
        head = None
    return f"{head}\t{ps.stem(w).encode().hex()}\t{low.encode().hex()}"


def main(argv: list[str]) -> int:
    step = 20 if "--quick" in argv else 1
    lemmas = sorted(wn._lemma_pos_offset_map)
    exc: set[str] = set()
    for suffix in ("noun", "verb", "adj", "adv"):
        with open(CORPUS / f"{suffix}.exc") as f:
            exc |= {line.split()[0] for line in f if line.strip()}
    inflected = {w + s for w in lemmas for s in ("s", "es", "ed", "ing", "er")}
    words = sorted(set(lemmas) | exc | inflected)[::step]
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000][::step]
    env = dict(
        os.environ, CARGO_PROFILE_RELEASE_LTO="off", CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16"
    )
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "rapidbleu-core", "--example", "meteor"],
        cwd=ROOT,
        check=True,
        env=env,
    )
    exe = ROOT / "target" / "release" / "examples" / "meteor"
    inputs = words + chars
    got = subprocess.run(
        [str(exe), "words", str(CORPUS)],
        input="".join(w.encode().hex() + "\n" for w in inputs),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    ps = PorterStemmer()
    bad = 0
    for k, (w, g) in enumerate(zip(inputs, got)):
        with_wordnet = k < len(words)
        want = expected(w, ps, with_wordnet)
        if not with_wordnet:
            g = "None\t" + g.split("\t", 4)[4]
        if g != want:
            bad += 1
            if bad <= 20:
                print(f"DIFF {w!r}: core {g!r} nltk {want!r}")
    print(
        f"compared {len(words)} words (synsets, morphy, stem, lower) and {len(chars)} code points "
        f"(stem, lower): {bad} differences"
    )
    return 1 if bad or len(got) != len(inputs) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
