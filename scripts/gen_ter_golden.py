r"""Golden vectors for the Rust TER core, computed by sacreBLEU 2.6.0 (and NumPy 2 for the
bootstrap), checked by crates/rapidbleu-core/tests/ter_golden.rs with ==.

Run from the repository root with the environment that has sacrebleu==2.6.0 installed:

    python scripts/gen_ter_golden.py

It writes crates/rapidbleu-core/tests/data/ter_*.tsv. Text fields are UTF-8 with a backslash,
and every character that is not printable or is whitespace other than the space, written as
\\ and \u{hex} (exact, readable, and parsed without a JSON crate); floats are Python reprs
(shortest round-trip, so Rust's correctly rounded parse gives the same f64). Text handed to
the core is lowercased here with Python's str.lower() when case_sensitive is off, as the glue
does.

Files:
- ter_tokenizer.tsv: flags, input, TercomTokenizer(...)(input), TER._preprocess_segment(input)
- ter_stats.tsv: group, flags, edits, avg_ref_len, capped, hyp, refs...
  (TER._compute_segment_statistics; capped = 1 when the 1,000-candidate cap was reached)
- ter_corpus.tsv: group, flags, score, ref_length, num_edits (TER(...).corpus_score of the
  group's segments)
- ter_bootstrap.tsv: "rows" lines (edits, ref_len_sum, num_refs), then "sample" lines
  (the indices of one resample, sum of edits, sum of ref lengths, score, all NumPy float32)
flags are four 0/1 digits: normalized, no_punct, asian_support, case_sensitive.
"""

import itertools
import math
import os
import random
import sys

import numpy as np
import sacrebleu
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import _bootstrap_resample
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
assert int(np.__version__.split(".")[0]) >= 2, np.__version__

OUT = os.path.join("crates", "rapidbleu-core", "tests", "data")
COMBOS = list(itertools.product([False, True], repeat=4))


def flags(c):
    return "".join("1" if x else "0" for x in c)


def hx(s):
    """Escapes a text field (see the module docstring)."""
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == " " or (ch.isprintable() and not ch.isspace()):
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    return "".join(out)


def core_input(c, s):
    """What the glue hands to the core: Python-lowercased unless case_sensitive."""
    return s if c[3] else s.lower()


NASTY = [
    "",
    " ",
    "\t\n",
    "Hello, World!",
    "U.S.A. e-mail 3.5 1,000 1.000,50 -3 3- a-3 3-a 1-2-3",
    "It's John's dog's 's 'S IT'S x'sy",
    "&amp;lt; &quot;x&quot; &apos;y&apos; &AMP; &amp;amp; &amp;quot; &lt;&gt; &gt&lt",
    "a.,b 1..5 ...a. ,,1 .5 5. a,1 1,a",
    '(a) [b] {c} <d> "e" f? g! h: i; j/k l\\m n|o p~q r^s t_u v`w x@y z#1 $2 %3 &4 *5 +6 =7',
    "line one\nline-\n-two\n-three\n\nfour\r\nfive",
    "東京は、ひらがなカタカナ。",
    "ひらがな",
    "カタカナ",
    "ㇰㇱㇲ",
    "中文测试，标点！问号？（括号）",
    "Ｆｕｌｌ，ｗｉｄｔｈ！　ｓｐａｃｅ．？：；＂（）",
    "한국어 문장입니다. 서울, 2024년!",
    "a\x1cb\x1dc\x1ed\x1fe",
    "a\u00a0b\u2009c\u3000d\u2028e\u2029f\u0085g\u1680h\u202fi\u205fj\u200bk\ufeffl",
    "  leading and trailing  \u00a0\u3000 ",
    "㈠㈡ ㌀ 㐀 丂 鿿 㼢㼣 ⺀ ⻿ ㇀ ㇯ 豈 ︰ ﹏ ｡｢｣､･ ・ 〈〉《》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟",  # noqa: E501
    "ÄÖÜ ß İstanbul ΣΊΣΥΦΟΣ ǅ Ⅻ ﬁ",
    "e\u0301 a\u0308 ﬀ 😀 👍🏽 \U0001f1e9\U0001f1ea",
    "Mixed: Tōkyō-3.5,東京‐2 «quotes» „de“ ‚x‘ ‹y›",
    "$10,000.00 -- 50% (approx.) vs. 3x; e.g. i.e.",
    "a - b -- c --- 1- -1 1--2",
    "'s 's' s' ''s '' '",
    "tab\tsep\vvert\fform\rcr",
    "。、！？",
    "&quot;&quot;&amp;&lt;&gt;",
    "x\n-",
    "\n-\n-",
]

ALPHABET = [
    *list("aB1.,-'s &;qutlgmp\n()!?:\"/"),
    *["\xa0", "\u3000", "\x1c", "東", "ひ", "カ", "，", "。", "！", "、", "ä", "Ä", "한"],
    *["㼢", "㼣", "ｶ", "･", "・", "＂"],
]


def random_strings(rng, k):
    out = []
    for _ in range(k):
        n = rng.randrange(0, 40)
        out.append("".join(rng.choice(ALPHABET) for _ in range(n)))
    return out


def gen_tokenizer(rng):
    strings = NASTY + random_strings(rng, 40)
    lines = []
    for c in COMBOS:
        tok = TercomTokenizer(
            normalized=c[0], no_punct=c[1], asian_support=c[2], case_sensitive=c[3]
        )
        metric = TER(normalized=c[0], no_punct=c[1], asian_support=c[2], case_sensitive=c[3])
        for s in strings:
            t, p = tok(s), metric._preprocess_segment(s)
            lines.append(
                "\t".join([flags(c), hx(core_input(c, s)), hx(t), "=" if p == t else hx(p)])
            )
    return lines


class CapSpy:
    """Records whether a translation_edit_rate call reached the candidate cap."""

    def __init__(self):
        self.hit = False
        self._orig = lib_ter._shift

    def __enter__(self):
        def spy(*args):
            r = self._orig(*args)
            if r[2] >= lib_ter._MAX_SHIFT_CANDIDATES:
                self.hit = True
            return r

        lib_ter._shift = spy
        return self

    def __exit__(self, *exc):
        lib_ter._shift = self._orig


def words(rng, n, v):
    return [f"w{rng.randrange(v)}" for _ in range(n)]


def stats_cases(rng):
    """(group, flags tuple, hyp, refs) for TER statistics."""
    default = (False, False, False, False)
    exact = (False, False, False, True)
    cases = []
    # Edge cases.
    for hyp, refs in [
        ("", [""]),
        ("a b", [""]),
        ("", ["a b c"]),
        ("a b c", ["a b c"]),
        ("a b", ["", "a b"]),
        ("a", ["b", "", "c d e"]),
        ("x y z", ["z y x"]),
        ("the cat sat on the mat", ["the cat is on the mat"]),
        ("a b c d e f", ["f e d c b a"]),
        ("a a a a", ["a"]),
        ("a", ["a a a a"]),
    ]:
        cases.append(("edge", exact, hyp, refs))
    # Shuffles, repeats, edits, unequal lengths, 1-3 references.
    for k in range(210):
        v = rng.choice([2, 3, 5, 10, 30])
        n = rng.randrange(0, 30)
        r = words(rng, n, v)
        kind = k % 5
        if kind == 0:
            h = r[:]
            rng.shuffle(h)
        elif kind == 1:
            h = (r[: max(1, n // 3)] * 4)[: 2 * n + 1]
        elif kind == 2:
            h = [
                w if rng.random() < 0.7 else f"w{rng.randrange(v)}" for w in r if rng.random() < 0.9
            ]
        elif kind == 3:
            h = words(rng, rng.choice([1, 2, 3, 90]), v)
        else:
            h = r[:]
            for _ in range(rng.randrange(1, 4)):
                if len(h) > 2:
                    a = rng.randrange(len(h))
                    b = rng.randrange(a, min(len(h), a + 12))
                    t = rng.randrange(len(h))
                    blk = h[a:b]
                    del h[a:b]
                    h[t:t] = blk
        nrefs = 1 + k % 3
        refs = [" ".join(r)] + [
            " ".join(
                rng.sample(r, len(r)) if rng.random() < 0.5 else words(rng, rng.randrange(0, 30), v)
            )
            for _ in range(nrefs - 1)
        ]
        cases.append((f"mixed{nrefs}", exact, " ".join(h), refs))
    # References far longer than the hypothesis and the reverse (beams of >64 cells, wide row 0).
    for k in range(24):
        v = rng.choice([2, 5, 20])
        if k % 2 == 0:
            r, h = words(rng, rng.randrange(60, 300), v), words(rng, rng.randrange(1, 8), v)
        else:
            r, h = words(rng, rng.randrange(1, 8), v), words(rng, rng.randrange(60, 200), v)
        cases.append(("unequal", exact, " ".join(h), [" ".join(r)]))
    # Shuffled 50-200-word segments over a small vocabulary: the 1,000-candidate cap.
    for k in range(12):
        v = rng.choice([10, 20, 30])
        r = words(rng, [50, 60, 80, 120, 200][k % 5], v)
        h = r[:]
        rng.shuffle(h)
        cases.append(("cap", exact, " ".join(h), [" ".join(r)]))
    # Text through every option combination.
    texts = NASTY[3:] + random_strings(rng, 40)
    for i, c in enumerate(COMBOS):
        for _ in range(12):
            hyp = rng.choice(texts)
            refs = [rng.choice(texts) for _ in range(1 + i % 3)]
            cases.append(("text" + flags(c), c, hyp, refs))
    # Three references: averages k/3, whose sum depends on the order of additions. The group
    # is drawn until its sequential sum (sacreBLEU's) differs from the exact one.
    while True:
        three = []
        for _ in range(100):
            r = [words(rng, rng.randrange(1, 40), 50) for _ in range(3)]
            h = words(rng, rng.randrange(1, 40), 50)
            three.append(("three", default, " ".join(h), [" ".join(x) for x in r]))
        avgs = [sum(len(x.split()) for x in refs) / 3 for _, _, _, refs in three]
        seq = 0
        for a in avgs:
            seq += a
        if seq != math.fsum(avgs):
            break
    cases.extend(three)
    return cases


def gen_stats(rng):
    lines, groups = [], {}
    metrics = {}
    for group, c, hyp, refs in stats_cases(rng):
        m = metrics.setdefault(
            c, TER(normalized=c[0], no_punct=c[1], asian_support=c[2], case_sensitive=c[3])
        )
        with CapSpy() as spy:
            edits, avg = m._compute_segment_statistics(
                m._preprocess_segment(hyp),
                m._extract_reference_info([m._preprocess_segment(r) for r in refs]),
            )  # as Metric._cache_references: references twice
        fields = [
            group,
            flags(c),
            str(edits),
            repr(avg),
            "1" if spy.hit else "0",
            hx(core_input(c, hyp)),
        ]
        lines.append("\t".join(fields + [hx(core_input(c, r)) for r in refs]))
        groups.setdefault((group, c), []).append((hyp, refs))
    corpus = []
    for (group, c), segs in groups.items():
        nrefs = max(len(r) for _, r in segs)
        if any(len(r) != nrefs for _, r in segs):
            continue  # corpus_score takes reference streams of equal count
        m = TER(normalized=c[0], no_punct=c[1], asian_support=c[2], case_sensitive=c[3])
        score = m.corpus_score(
            [h for h, _ in segs], [[r[k] for _, r in segs] for k in range(nrefs)]
        )
        corpus.append(
            "\t".join(
                [group, flags(c), repr(score.score), repr(score.ref_length), str(score.num_edits)]
            )
        )
    capped = sum(line.split("\t")[4] == "1" for line in lines)
    assert capped >= 5, f"only {capped} capped segments"
    return lines, corpus


def gen_bootstrap(rng):
    lines = []
    metric = TER()
    for n_seg, n_samples in [(200, 20), (1500, 3)]:
        rows = []
        for _ in range(n_seg):
            k = rng.choice([1, 2, 3])
            rows.append((rng.randrange(0, 120), rng.randrange(0, 80 * k), k))
        stats = [[e, s / k] for e, s, k in rows]
        # sacreBLEU's own resampling (seed 12345) ...
        os.environ["SACREBLEU_SEED"] = "12345"
        _, scores = _bootstrap_resample(stats, metric, n_samples)
        # ... and the same indices and float32 sums, drawn as it draws them.
        idxs = np.random.default_rng(12345).choice(n_seg, size=(n_samples, n_seg), replace=True)
        stats_np = np.array(stats, dtype="float32")
        lines.append("rows\t" + " ".join(f"{e},{s},{k}" for e, s, k in rows))
        for sample, s in zip(idxs, scores):
            total = stats_np[sample].sum(0)
            assert metric._compute_score_from_stats(total).score == s.score
            lines.append(
                "\t".join(
                    [
                        "sample",
                        " ".join(map(str, sample)),
                        repr(float(total[0])),
                        repr(float(total[1])),
                        repr(float(s.score)),
                    ]
                )
            )
    return lines


def write(name, lines):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} lines, {os.path.getsize(path)} bytes", file=sys.stderr)


def main():
    rng = random.Random(20260923)
    os.makedirs(OUT, exist_ok=True)
    write("ter_tokenizer.tsv", gen_tokenizer(rng))
    stats, corpus = gen_stats(rng)
    write("ter_stats.tsv", stats)
    write("ter_corpus.tsv", corpus)
    write("ter_bootstrap.tsv", gen_bootstrap(rng))


if __name__ == "__main__":
    main()
