"""Generate crates/rapidbleu-core/tests/data/chrf_golden.txt with sacreBLEU 2.6.0 (the oracle).

Run with the project's environment (sacrebleu==2.6.0, numpy >= 2):

    python scripts/gen_chrf_golden.py > crates/rapidbleu-core/tests/data/chrf_golden.txt

The Rust test `crates/rapidbleu-core/tests/chrf_golden.rs` checks every value with `==`.

Format, one record a line (strings are "x" + hex of their UTF-8, so that every whitespace code
point survives; floats are the hex of their IEEE-754 bits):
    T <hyp> <ref> <ref> ...             a segment (numbered from 0 in file order)
    P <char> <word> <factor> <ws> <eps> <lc>   an option set; its segments follow
    S <segment index> <row, comma-separated> <sentence score>
    C <corpus score>                    `corpus_score` of the option set's segments
    F <char> <word> <factor> <eps> <float32 row bits> <score> <1 if np.float32 else 0>
With lowercase on, the stored text is what the core receives from the glue: non-ASCII strings
already lowercased by Python's `str.lower()`, ASCII strings as given (the core lowercases ASCII).
"""

import random
import struct
import sys

import numpy as np
import sacrebleu
from sacrebleu.metrics import CHRF

assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__
assert int(np.__version__.split(".")[0]) >= 2, np.__version__

PY_WS = [chr(c) for c in range(0x110000) if chr(c).isspace()]


def hx(s):
    return "x" + s.encode("utf-8").hex()


def fbits(x):
    return f"{struct.unpack('<Q', struct.pack('<d', float(x)))[0]:x}"


def f32bits(x):
    return f"{struct.unpack('<I', struct.pack('<f', float(x)))[0]:x}"


def segments():
    """Hand-made segments: (hypothesis, [references])."""
    s = []
    # Every Python whitespace code point, between words and at the ends (whitespace=True
    # keeps the ends: chrF does not rstrip).
    for w in PY_WS:
        s.append((f"a{w}bc{w}", [f"a bc{w}"]))
    s.append(("".join(PY_WS) + "x", ["x" + "".join(PY_WS)]))
    # Not whitespace in Python: ZWSP, ZWNBSP, and Rust's U+001C..U+001F trap the other way.
    s.append(("a\u200bb c\ufeffd", ["a b\u200bc d"]))
    s.append(("a\u00a0b\u200bc", ["a b c"]))
    s.append((" a  b ", ["a b"]))
    s.append(("x\x1cy\x1dz\x1e \x1f", ["x y z"]))
    # Punctuation at token edges (`_remove_punctuation`): one character, last before first.
    s.append(("(hi) hello, 'x' a .", ["(hi) hello , ' x ' a."]))
    s.append(("hello,", ["hello"]))
    s.append(("'x'", ["'x' 'x"]))
    s.append((".", ["."]))
    s.append((". , ! ? ,, () (( ))", [", . ! ?"]))
    s.append(('"quoted" [b] {c} a-b a_b ~x x~ @home', ['"quoted" [b]{c} a-b ~x']))
    s.append(("é. .é 中. .中 😀!", ["é . . é 中 .中 😀 !"]))
    # One-character tokens, short and long texts.
    s.append(("a b c d", ["a b c d e"]))
    s.append(("é 中 😀 x", ["中 é x 😀"]))
    s.append(("abcdefgh", ["ab"]))
    s.append(("ab", ["abcdefgh"]))
    s.append(("a", ["a"]))
    # Empty strings.
    s.append(("", [""]))
    s.append(("", ["abc def"]))
    s.append(("abc def", [""]))
    s.append((" ", [" "]))
    s.append(("   ", ["\t"]))
    # Several references: ties (the first wins), all-zero F, an empty one among them.
    s.append(("the cat sat", ["the cat sat", "the cat sat"]))
    s.append(("the cat sat", ["a dog ran", "the cat sat", "the cat"]))
    s.append(("the cat sat", ["xyz", "qqq", "www"]))
    s.append(("the cat sat", ["", "the cat sat on"]))
    s.append(("the cat sat", ["sat cat the", "the cat sat"]))
    s.append(("ab ba", ["ba ab", "ab ba", "ab ab"]))
    s.append(("", ["", "x"]))
    s.append(("x", ["y", ""]))
    # Repeats (clipping by min), CJK, emoji sequences, combining marks, astral planes.
    s.append(("aaaa aaaa aa", ["aaa aaa", "a a a a a a a a a a"]))
    s.append(("the the the the", ["the cat the", "the"]))
    s.append(("我喜欢吃苹果。", ["我爱吃苹果。", "我喜欢苹果"]))
    s.append(("日本語のテキスト、です。", ["日本語のテキストです。"]))
    s.append(("한국어 문장입니다.", ["한국어 문장 입니다 ."]))
    s.append(("👍🏽 👨‍👩‍👧 🇩🇪 😀😀", ["👍 👨‍👩‍👧 🇩🇪 😀"]))
    s.append(("cafe\u0301 café", ["café cafe\u0301", "cafe"]))
    s.append(("\U00010000\U0010fffd \ue000 \ufffd \x00 \x7f", ["\U00010000 \U0010fffd\ue000 \x00"]))
    s.append(("Ǆ ǅ ǆ ﬁ ß ẞ", ["ǆ ǅ ﬁ ss"]))
    # Case: ASCII and non-ASCII capitals (lowercase=True maps them, mixed case keeps them).
    s.append(("Hello WORLD", ["hello world", "HELLO World"]))
    s.append(("ÄÖÜ İstanbul \u212a ΣΑΣ", ["äöü istanbul k σας"]))
    s.append(("The Quick Brown Fox.", ["the quick brown fox ."]))
    # A longer sentence with word n-grams of several orders.
    s.append(
        (
            "Die Katze sitzt auf der Matte, und der Hund schläft unter dem Tisch.",
            [
                "Die Katze saß auf der Matte, der Hund schlief unter dem Tisch.",
                "Eine Katze sitzt auf einer Matte und ein Hund schläft.",
            ],
        )
    )
    return s


def option_sets(rng):
    """The defaults (chrF, chrF++, chrF++ eps) and a random selection covering every value."""
    opts = [
        dict(char_order=6, word_order=0, beta=2),
        dict(char_order=6, word_order=2, beta=2),
        dict(char_order=6, word_order=2, beta=2, eps_smoothing=True),
        dict(char_order=6, word_order=0, beta=2, whitespace=True),
        dict(char_order=0, word_order=2, beta=2),
        dict(char_order=1, word_order=0, beta=0, eps_smoothing=True),
    ]
    values = dict(
        char_order=[0, 1, 2, 3, 4, 6, 7],
        word_order=[0, 1, 2, 3],
        beta=[0, 1, 2, 3],
        whitespace=[False, True],
        eps_smoothing=[False, True],
        lowercase=[False, True],
    )
    while len(opts) < 40:
        o = {k: rng.choice(v) for k, v in values.items()}
        if o["char_order"] + o["word_order"] > 0:
            opts.append(o)
    return opts


def as_core_input(text, lowercase):
    # The glue's share of lowercasing: Python's str.lower() for non-ASCII strings.
    return text.lower() if lowercase and not text.isascii() else text


def f32_rows(rng, n):
    """Float32 rows as sacreBLEU's bootstrap builds them, plus arbitrary ones."""
    for _ in range(n):
        c, w = rng.choice([(6, 0), (6, 2), (1, 0), (0, 2), (3, 1)])
        beta = rng.choice([0, 1, 2, 3, 0.5])
        eps = rng.random() < 0.5
        scale = rng.choice([5, 1000, 16_000_000])
        row = []
        for _ in range(c + w):
            r = rng.randrange(scale) if rng.random() > 0.15 else 0
            h = rng.randrange(scale) if r > 0 and rng.random() > 0.15 else 0
            m = rng.randrange(min(h, r) + 1) if rng.random() > 0.2 else 0
            row += [h, r, m]
        yield c, w, beta, eps, np.array(row, dtype="float32")


def main():
    rng = random.Random(2024)
    out = sys.stdout
    out.write(
        f"# sacreBLEU {sacrebleu.__version__}, numpy {np.__version__}, "
        f"Python {sys.version.split()[0]}: scripts/gen_chrf_golden.py\n"
    )
    segs = segments()
    texts = {}
    for o in option_sets(rng):
        lc = o.get("lowercase", False)
        m = CHRF(**o)
        hyps = [h for h, _ in segs]
        k = max(len(r) for _, r in segs)
        streams = [[r[j] if j < len(r) else None for _, r in segs] for j in range(k)]
        stats = m._extract_corpus_statistics(hyps, streams)
        rows = []
        for (h, refs), row in zip(segs, stats):
            key = tuple(as_core_input(t, lc) for t in [h, *refs])
            if key not in texts:
                texts[key] = len(texts)
                out.write("T " + " ".join(hx(t) for t in key) + "\n")
            score = m.sentence_score(h, refs).score
            assert score == m._compute_f_score(row)
            rows.append(f"S {texts[key]} {','.join(map(str, row))} {fbits(score)}\n")
        factor = o["beta"] ** 2
        flags = (int(o.get("whitespace", False)), int(o.get("eps_smoothing", False)), int(lc))
        out.write(
            f"P {o['char_order']} {o['word_order']} {fbits(factor)} {' '.join(map(str, flags))}\n"
        )
        out.writelines(rows)
        out.write(f"C {fbits(m.corpus_score(hyps, streams).score)}\n")
    for c, w, beta, eps, row in f32_rows(rng, 400):
        got = CHRF(char_order=c, word_order=w, beta=beta, eps_smoothing=eps)._compute_f_score(row)
        is32 = isinstance(got, np.float32)
        assert is32 or type(got) is float
        bits = ",".join(f32bits(v) for v in row)
        out.write(f"F {c} {w} {fbits(beta**2)} {int(eps)} {bits} {fbits(got)} {int(is32)}\n")


if __name__ == "__main__":
    main()
