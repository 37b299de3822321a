"""Writes tests/data/meteor/golden.txt: NLTK 3.10.4's METEOR and WordNet on generated and real
input, for the core's `==` test (crates/rapidbleu-core/tests/meteor_golden.rs).

    .venv/bin/python scripts/wordnet_data.py            # WordNet 3.0 into target/nltk_data
    .venv/bin/python tests/meteor/make_golden.py

Format: one record per line, fields separated by tabs; a token list is its tokens joined by
spaces, each token escaped (`%`, space, tab, CR, LF and other ASCII controls as `%XX`); floats
are the 16 hex digits of their IEEE-754 bits.

- `O id alpha beta gamma lowercase stem wordnet`: an option set (flags 0/1).
- `G opt hyp ref... | single row score`: a generated case under option set `opt`: the
  hypothesis, its references, `single_meteor_score(refs[0], hyp)` when there is one reference
  (else `-`), the row `[matches, chunks, hyp_len, ref_len]` of the reference `max` keeps, and
  `meteor_score(refs, hyp)`.
- `R set line row score`: real data `set` (`zh-en.1`: NiuTrans against ref.A; `zh-en.2`:
  against ref.A and ref.B; tokens: `str.split()`), default options; `M set mean`: evaluate's
  `np.mean` of that set's scores.
- `W word count hash`: `{l.name() for s in wordnet.synsets(word) for l in s.lemmas()}` of a
  word (every word form of the real data, a sample of index lemmas and exception forms, and
  their inflections): the number of names and the FNV-1a 64 hash of the sorted names joined
  by `\\n` (its top 48 bits), then the same for NLTK's `_morphy(word.lower(), pos)` per part
  of speech: the number of forms and the hash of `pos:form,form;` for n, v, a, r in order.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import nltk  # noqa: E402
import wordnet_data  # noqa: E402

nltk.data.path.insert(0, str(wordnet_data.build().parent.parent))

from nltk.corpus import wordnet as wn  # noqa: E402
from nltk.stem.porter import PorterStemmer  # noqa: E402
from nltk.translate.meteor_score import (  # noqa: E402
    _count_chunks,
    _enum_align_words,
    _generate_enums,
    meteor_score,
    single_meteor_score,
)

DATA = ROOT / "tests" / "data"
OUT = DATA / "meteor" / "golden.txt"
POS = ("n", "v", "a", "r")


class NoStem:
    """A stemmer that leaves words as they are (the stem stage off)."""

    def stem(self, word: str) -> str:
        return word


class NoWordNet:
    """A WordNet without synsets (the synonym stage off)."""

    def synsets(self, word: str) -> list[object]:
        return []


def esc(tok: str) -> str:
    out = []
    for c in tok:
        if c == "%" or ord(c) <= 0x20 or c == "\x7f":
            out.append(f"%{ord(c):02X}")
        else:
            out.append(c)
    return "".join(out)


def toks(ts: list[str]) -> str:
    return " ".join(esc(t) for t in ts)


def bits(x: float) -> str:
    return np.float64(x).view(np.uint64).item().to_bytes(8, "big").hex()


def fnv(names: list[str]) -> str:
    h = 0xCBF29CE484222325
    for b in "\n".join(sorted(names)).encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%012x" % (h >> 16)


def best_row(refs, hyp, pre, stemmer, wnet, a, b, g):
    """The row of the reference `max` keeps (NLTK's functions, step by step)."""
    best = None
    for r in refs:
        eh, er = _generate_enums(hyp, r, preprocess=pre)
        m, _, _ = _enum_align_words(eh, er, stemmer=stemmer, wordnet=wnet)
        s = single_meteor_score(r, hyp, pre, stemmer, wnet, a, b, g)
        row = [len(m), _count_chunks(m) if m else 0, len(eh), len(er)]
        if best is None or s > best[0]:
            best = (s, row)
    return best[1]


def word_pools(rng: random.Random, real_words: list[str]) -> dict[str, list[str]]:
    """Words that match each other at each stage."""
    syn_groups = []
    synsets = list(wn.all_synsets())
    rng.shuffle(synsets)
    for s in synsets[:3000]:
        names = [n for n in s.lemma_names() if "_" not in n]
        if len(names) >= 2:
            syn_groups.append(names)
    ps = PorterStemmer()
    by_stem: dict[str, list[str]] = {}
    for w in real_words:
        by_stem.setdefault(ps.stem(w), []).append(w)
    stem_groups = [g for g in by_stem.values() if len(set(g)) >= 2]
    infl = []
    for g in syn_groups[:300]:
        for n in g:
            infl += [n + "s", n + "es", n + "ed", n + "ing", n + "er", n + "est"]
    exc = []
    for suffix in ("noun", "verb", "adj", "adv"):
        with open(Path(wn.root.path) / f"{suffix}.exc") as f:
            exc += [line.split()[0] for line in f]
    return {
        "syn": [w for g in syn_groups for w in g],
        "syn_groups": syn_groups,
        "stem_groups": stem_groups,
        "infl": infl,
        "exc": exc,
        "real": real_words,
    }


def unicode_token(rng: random.Random) -> str:
    specials = "İıΣσςẞßKÅǅǈǋͅΐﬃ\u0307\u200b\u00a0ÉéŁłΟΔ"
    n = rng.randint(1, 6)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(rng.choice(specials))
        elif r < 0.7:
            out.append(chr(rng.randint(0x41, 0x7A)))
        else:
            c = rng.randint(0x80, 0x10FFFF)
            while 0xD800 <= c < 0xE000:
                c = rng.randint(0x80, 0x10FFFF)
            out.append(chr(c))
    return "".join(out)


def generated(rng: random.Random, pools: dict, n_cases: int):
    def word() -> str:
        k = rng.random()
        if k < 0.25:
            w = rng.choice(pools["syn"])
        elif k < 0.45:
            w = rng.choice(rng.choice(pools["stem_groups"]))
        elif k < 0.55:
            w = rng.choice(pools["infl"])
        elif k < 0.62:
            w = rng.choice(pools["exc"])
        elif k < 0.75:
            w = unicode_token(rng)
        else:
            w = rng.choice(pools["real"])
        c = rng.random()
        if c < 0.15:
            w = w.upper()
        elif c < 0.3:
            w = w.capitalize()
        return w

    def sentence(base: list[str] | None) -> list[str]:
        n = rng.choice([0, 1, 2, 3, 5, 8, 12, 20, 30]) if rng.random() < 0.9 else rng.randint(0, 50)
        if base and rng.random() < 0.7:
            # Reuse and perturb: synonyms and stems of the base words, repeats, reorders.
            out = []
            for w in base:
                r = rng.random()
                if r < 0.15:
                    for g in pools["syn_groups"]:
                        if w.lower() in g:
                            w = rng.choice(g)
                            break
                elif r < 0.25:
                    w = word()
                elif r < 0.3:
                    continue
                out.append(w)
                if rng.random() < 0.1:
                    out.append(w)
            if rng.random() < 0.3:
                rng.shuffle(out)
            return out
        if rng.random() < 0.2 and n:
            vocab = [word() for _ in range(rng.randint(1, 3))]
            return [rng.choice(vocab) for _ in range(n)]
        return [word() for _ in range(n)]

    for _ in range(n_cases):
        hyp = sentence(None)
        refs = [sentence(hyp) for _ in range(rng.choice([1, 1, 2, 3, 4]))]
        yield hyp, refs


def main() -> int:
    rng = random.Random(20261128)
    lines: list[str] = []
    ps = PorterStemmer()
    options = [
        (0.9, 3.0, 0.5, True, True, True),
        (0.9, 3.0, 0.5, False, True, True),
        (0.9, 3.0, 0.5, True, False, True),
        (0.9, 3.0, 0.5, True, True, False),
        (0.5, 1.0, 0.0, True, True, True),
        (1.0, 0.0, 1.0, True, True, True),
        (0.0, 2.5, 0.8, True, True, True),
        (0.2, 7.0, 2.0, False, False, True),
        (0.85, 0.2, 0.6, True, True, True),
    ]
    for k, (a, b, g, low, stem, wnet) in enumerate(options):
        lines.append(
            "\t".join(
                ["O", str(k), bits(a), bits(b), bits(g), *(str(int(x)) for x in (low, stem, wnet))]
            )
        )

    real: dict[str, list[list[str]]] = {}
    folder = DATA / "wmt22.zh-en"
    for name in ("hyp.NiuTrans.en", "ref.A.en", "ref.B.en"):
        with open(folder / name, encoding="utf-8") as f:
            real[name] = [line.rstrip("\n").split() for line in f]
    real_words = sorted({w for segs in real.values() for s in segs for w in s})
    pools = word_pools(rng, real_words)

    for hyp, refs in generated(rng, pools, 2200):
        k = rng.randrange(len(options)) if rng.random() < 0.5 else 0
        a, b, g, low, stem, wnet = options[k]
        pre = str.lower if low else (lambda s: s)
        st = ps if stem else NoStem()
        wnt = wn if wnet else NoWordNet()
        if not refs:
            continue
        score = meteor_score(refs, hyp, pre, st, wnt, a, b, g)
        single = (
            bits(single_meteor_score(refs[0], hyp, pre, st, wnt, a, b, g))
            if len(refs) == 1
            else "-"
        )
        row = best_row(refs, hyp, pre, st, wnt, a, b, g)
        lines.append(
            "\t".join(
                [
                    "G",
                    str(k),
                    toks(hyp),
                    *(toks(r) for r in refs),
                    "|",
                    single,
                    ",".join(map(str, row)),
                    bits(score),
                ]
            )
        )

    hyps, ra, rb = real["hyp.NiuTrans.en"], real["ref.A.en"], real["ref.B.en"]
    for set_name, groups in (
        ("zh-en.1", [[r] for r in ra]),
        ("zh-en.2", [[a, b] for a, b in zip(ra, rb)]),
    ):
        scores = []
        for i, (h, refs) in enumerate(zip(hyps, groups)):
            s = meteor_score(refs, h)
            scores.append(s)
            row = best_row(refs, h, str.lower, ps, wn, 0.9, 3.0, 0.5)
            lines.append("\t".join(["R", set_name, str(i), ",".join(map(str, row)), bits(s)]))
        lines.append("\t".join(["M", set_name, bits(float(np.mean(scores)))]))

    index_lemmas = sorted(wn._lemma_pos_offset_map)
    words = (
        set(real_words) | set(rng.sample(index_lemmas, 1500)) | set(rng.sample(pools["exc"], 1500))
    )
    words |= set(rng.sample(pools["infl"], 1000))
    words |= {
        w + s for w in rng.sample(index_lemmas, 200) for s in ("s", "ed", "ing", "er", "est", "es")
    }
    for w in sorted(words):
        names = sorted({lem.name() for s in wn.synsets(w) for lem in s.lemmas()})
        low = w.lower()
        forms = [wn._morphy(low, p) for p in POS]
        parts = "".join(p + ":" + ",".join(f) + ";" for p, f in zip(POS, forms))
        n_forms = str(sum(map(len, forms)))
        lines.append("\t".join(["W", esc(w), str(len(names)), fnv(names), n_forms, fnv([parts])]))

    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(lines)} lines, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
