"""Golden vectors of ROUGE's dialects, from the installed packages themselves.

Writes crates/rapidbleu-core/tests/data/rouge_dialects/*.txt.gz (gzip; beside the core's other
goldens, out of tests/data, whose every file the real-data tests read as text; read by
crates/rapidbleu-core/tests/rouge_dialects_golden.rs, which compares with ``==`` on f64 bits):

- ``pltrdy.txt``: the ``rouge`` package 1.0.1 (``Rouge().get_scores``);
- ``chinese.txt``: ``rouge-chinese`` 1.0.3, on the same items plus Chinese segmented with jieba;
- ``unicode.txt``: rouge-score 0.1.2's ``RougeScorer`` with rapidbleu's Unicode tokenizer written
  here in Python from ``unicodedata`` (the independent reference of rouge/dialects/unicode.rs);
- ``xlsum.txt``: XL-Sum's ``multilingual-rouge`` 0.0.1 ``RougeScorer(lang=...)``: the tokens its
  own tokenizers and stemmers make (stored), and its scores.

Items: generated text in many scripts (Latin with accents, Cyrillic, Greek, Arabic, Devanagari,
Thai, CJK, Hangul, emoji, punctuation, whitespace of every kind, random code points of every
plane, empty strings, repeated words,
several sentences, a sentence long enough for ``rouge``'s recursive LCS read-back to raise
``RecursionError``), and real lines of tests/data (referenced by file and line, not copied).

Format (one record per line, fields separated by one space; ``#`` starts a comment):
strings are ``x`` + the UTF-8 bytes in hex, or ``f<path>:<line>`` (tests/data, ``split("\\n")``);
floats are the 16 hex digits of their IEEE-754 bits.

    T <id> <hyp> <ref>                           an item (pltrdy.txt, chinese.txt)
    R <id> <excl> <hyp_len> <ref_len> <m>*6      per item: lengths ('-' on error), per metric
                                                 rouge-1..5, rouge-l: hyp,ref,overlap,f,p,r
                                                 (raw_results, then scores) or E<code>:
                                                 H hypothesis empty, F reference empty,
                                                 C no sentence (rouge-l), R RecursionError
    A <excl> <ignore_empty> <ids> <result>       get_scores(avg=True, return_lengths=True) of
                                                 the items <ids> (comma-separated, '-': none):
                                                 per metric f,p,r then hyp_len,ref_len, or E<code>
                                                 (as R; Z ZeroDivisionError, U nothing left
                                                 after ignore_empty)
    U <id> <id2> <hyp tokens> <stem> <s>*5       unicode.txt: item <id> of pltrdy.txt (its
                                                 hyp against its ref, and item <id2>'s ref too
                                                 unless '-'); the hyp's tokens '\\x1f'-joined
                                                 ('-' for real lines); per type rouge1, rouge2,
                                                 rouge3, rougeL, rougeLsum: p,r,f
    L <lang> <stem> <ok|E<why>>                  xlsum.txt: a language (its scorer built or not)
    X <id> <tt> <pt> <ts> <ps> <s>*4             xlsum.txt: item <id> of pltrdy.txt (its ref
                                                 the target, its hyp the prediction): tokens
                                                 ('\\x1f'-joined) and
                                                 sentences (count, then '\\x1e' + tokens each);
                                                 rouge1, rouge2, rougeL, rougeLsum: p,r,f

Run: .venv/bin/python tests/rouge_dialects/make_golden.py (rouge==1.0.1, rouge-chinese==1.0.3,
jieba, multilingual-rouge==0.0.1, rouge-score==0.1.2 installed).
"""

from __future__ import annotations

import gzip
import random
import struct
import sys
import unicodedata
import warnings
from pathlib import Path
from typing import Any

import jieba
import rouge
import rouge_chinese
from nltk.stem import porter
from rouge_score import rouge_scorer

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
OUT = ROOT / "crates" / "rapidbleu-core" / "tests" / "data" / "rouge_dialects"
METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]
ERRORS = {
    "Hypothesis is empty.": "H",
    "Reference is empty.": "F",
    "Collections must contain at least 1 sentence.": "C",
}

WORDS = {
    "latin": "the The a an of running runs dogs Dog 3rd 2024 x2 café naïve Cristóbal señor "
    "Ünïcödé straße ÉCOLE İstanbul \u212aelvin ﬁne O'Neil well-known e.g. U.S.".split(),
    "cyrillic": "Привет мир МИР книга книги ёж Ёлка".split(),
    "greek": "ΣΟΦΙΑ σοφία λόγος ΛΌΓΟΣ ς Σ".split(),
    "arabic": "مرحبا بالعالم كتاب الكتاب ٣ ١٠".split(),
    "devanagari": "नमस्ते दुनिया हिन्दी भाषा किताबें लड़कियाँ १२ करेंगे".split(),
    "thai": "สวัสดี ครับ ภาษาไทย ผม ชื่อ".split(),
    "cjk": "我 爱 北京 天安门 中国人 こんにちは 世界 カタカナ 한국어 안녕하세요 漢字".split(),
    "emoji": "😀 👍🏽 🇫🇷 ❤️ 🙂🙂".split(),
    "punct": [
        ".",
        ",",
        "!",
        "?",
        "...",
        "......",
        "—",
        "'",
        '"',
        "(",
        ")",
        "-",
        "'s",
        "#",
        "。",
        "！",
        "？",
        "”",
        "’",
        "，",
        "……",
        "?”",
        "。’",
    ],
}
SEPS = [" "] * 12 + [
    "",
    "  ",
    "\t",
    "\u00a0",
    "\u3000",
    "\n",
    "\u2028",
    ". ",
    ".",
    "。",
    "\n\n",
    " \n ",
    "……",
    "?",
]


def hx(s: str) -> str:
    return "x" + s.encode("utf-8", "surrogatepass").hex()


def fb(x: float) -> str:
    return f"{struct.unpack('<Q', struct.pack('<d', float(x)))[0]:016x}"


def gen_text(rng: random.Random, scripts: list[str], n: int) -> str:
    out = []
    for _ in range(n):
        out.append(rng.choice(WORDS[rng.choice(scripts)]))
        out.append(rng.choice(SEPS))
    return "".join(out[:-1])


def mutate(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    for _ in range(rng.randrange(4)):
        k = rng.randrange(4)
        if k == 0 and len(words) > 1:
            words.pop(rng.randrange(len(words)))
        elif k == 1 and words:
            i = rng.randrange(len(words))
            words.insert(i, words[i])
        elif k == 2 and len(words) > 1:
            i, j = rng.randrange(len(words)), rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        else:
            words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS["latin"]))
    return " ".join(words)


FIXED = [
    ("", ""),
    ("", "a"),
    ("a", ""),
    (" ", " "),
    (" ", "a"),
    ("...", "a"),
    ("a", "..."),
    ("a.", "a. "),
    ("a. .b", "a b"),
    ("a a a a", "a"),
    ("a", "a a a a"),
    ("。", "。"),
    ("......x", "x"),
    ("the cat. the cat. the cat", "the cat sat on the mat. the cat"),
    ("A b c. D e f. G h", "a b c. d e f. g h"),
    ("你好。世界！", "你好！世界。"),
    ("好？”他说。“是的……”", "好？”他说……是"),
    ("x\n\ny", "x \n \ny"),
    ("\u3000", "\u3000"),
    ("w1 w2 w6 w7 w8. w1 w3 w8 w9 w5", "w1 w2 w3 w4 w5"),
    ("😀", "😀"),
    ("!!!", "!!!"),
    ("Cristóbal", "Cristbal"),
    ("ΣΟΦΙΑ", "σοφια"),
    ("İ", "i\u0307"),
    ("a\u2028b", "a b"),
    (
        " ".join([f"w{i % 7}" for i in range(1200)]),
        " ".join([f"w{i % 11}" for i in range(900)]),
    ),
    (
        " ".join([f"w{i % 7}" for i in range(300)]),
        " ".join([f"w{i % 5}" for i in range(300)]),
    ),
]

REAL = [
    ("wmt22.zh-en/hyp.NiuTrans.en", "wmt22.zh-en/ref.A.en"),
    ("wmt22.en-de/hyp.OpenNMT.de", "wmt22.en-de/ref.A.de"),
    ("wmt17.en-de/hyp.uedin-nmt.4722.de", "wmt17.en-de/ref.A.de"),
    ("wmt22.en-zh/hyp.HuaweiTSC.zh", "wmt22.en-zh/ref.A.zh"),
    ("wmt22.en-ja/hyp.NT5.ja", "wmt22.en-ja/ref.A.ja"),
    ("wmt24chat.en-ko/hyp.baseline.ko", "wmt24chat.en-ko/ref.A.ko"),
]


def lines(rel: str) -> list[str]:
    return (DATA / rel).read_text(encoding="utf-8").split("\n")


def items(rng: random.Random) -> list[tuple[str, str, str, str]]:
    """(hyp spec, ref spec, hyp, ref) of every item."""
    out = [(hx(h), hx(r), h, r) for h, r in FIXED]
    scripts = list(WORDS)
    for _ in range(220):
        mix = rng.sample(scripts, rng.randrange(1, 4))
        ref = gen_text(rng, mix, rng.randrange(1, 25))
        hyp = mutate(rng, ref) if rng.random() < 0.7 else gen_text(rng, mix, rng.randrange(1, 25))
        out.append((hx(hyp), hx(ref), hyp, ref))
    # Random code points of every plane (no surrogates), with spaces and full stops among them.
    for _ in range(60):

        def cp() -> str:
            while True:
                c = rng.choice(
                    [rng.randrange(0x80), rng.randrange(0x3000), rng.randrange(0x110000)]
                )
                if not 0xD800 <= c <= 0xDFFF:
                    return chr(c)

        ref = "".join(
            cp() if rng.random() < 0.8 else rng.choice(" .。\n") for _ in range(rng.randrange(30))
        )
        hyp = "".join(c for c in ref if rng.random() < 0.8) + "".join(
            cp() for _ in range(rng.randrange(4))
        )
        out.append((hx(hyp), hx(ref), hyp, ref))
    for hyp_file, ref_file in REAL:
        hs, rs = lines(hyp_file), lines(ref_file)
        for k in range(0, min(len(hs), len(rs)), max(1, len(hs) // 50))[:50]:
            out.append((f"f{hyp_file}:{k}", f"f{ref_file}:{k}", hs[k], rs[k]))
    return out


def code(e: BaseException) -> str:
    if isinstance(e, RecursionError):
        return "ER"
    if isinstance(e, ZeroDivisionError):
        return "EZ"
    if isinstance(e, ValueError) and str(e) in ERRORS:
        return "E" + ERRORS[str(e)]
    if isinstance(e, ValueError) and "not enough values to unpack" in str(e):
        return "EU"
    raise e


def pltrdy_records(module, all_items, rng: random.Random) -> list[str]:
    recs = [f"T {i} {h} {r}" for i, (h, r, _, _) in enumerate(all_items)]
    for excl in (True, False):
        ok = []
        for i, (_, _, hyp, ref) in enumerate(all_items):
            fields = []
            try:
                lengths = module.Rouge(
                    metrics=["rouge-1"], return_lengths=True, exclusive=excl
                ).get_scores(hyp, ref)[0]["lengths"]
                lens = f"{lengths['hyp']} {lengths['ref']}"
            except (ValueError, RecursionError):
                lens = "- -"
            good = True
            for m in METRICS:
                try:
                    raw = module.Rouge(metrics=[m], raw_results=True, exclusive=excl).get_scores(
                        hyp, ref
                    )
                    sc = module.Rouge(metrics=[m], exclusive=excl).get_scores(hyp, ref)
                    raw, sc = raw[0][m], sc[0][m]
                    fields.append(
                        f"{raw['hyp']},{raw['ref']},{raw['overlap']},"
                        f"{fb(sc['f'])},{fb(sc['p'])},{fb(sc['r'])}"
                    )
                except (ValueError, RecursionError) as e:
                    fields.append(code(e))
                    good = False
            if good:
                ok.append(i)
            recs.append(f"R {i} {int(excl)} {lens} " + " ".join(fields))
        batches = [rng.sample(ok, rng.randrange(1, 40)) for _ in range(12)]
        batches += [
            list(range(k, min(k + 40, len(all_items)))) for k in range(0, len(all_items), 40)
        ]
        batches += [[], [0], [0, 1, 2], [1, 3, 4]]
        for ids in batches:
            for ignore_empty in (False, True):
                hyps = [all_items[i][2] for i in ids]
                refs = [all_items[i][3] for i in ids]
                try:
                    avg = module.Rouge(
                        metrics=METRICS, return_lengths=True, exclusive=excl
                    ).get_scores(hyps, refs, avg=True, ignore_empty=ignore_empty)
                    res = " ".join(
                        f"{fb(avg[m]['f'])},{fb(avg[m]['p'])},{fb(avg[m]['r'])}" for m in METRICS
                    )
                    res += f" {fb(avg['lengths']['hyp'])},{fb(avg['lengths']['ref'])}"
                except (ValueError, RecursionError, ZeroDivisionError) as e:
                    res = code(e)
                recs.append(
                    f"A {int(excl)} {int(ignore_empty)} {','.join(map(str, ids)) or '-'} {res}"
                )
    return recs


def chinese_items(all_items):
    """The items, plus every CJK real line and generated item segmented with jieba."""
    extra = []
    for _, _, hyp, ref in all_items:
        if any("\u4e00" <= c <= "\u9fff" for c in hyp + ref):
            sh, sr = " ".join(jieba.cut(hyp)), " ".join(jieba.cut(ref))
            extra.append((hx(sh), hx(sr), sh, sr))
    return all_items + extra


# rapidbleu's Unicode tokenizer, written from its definition (rouge/dialects/unicode.rs).
UNSEGMENTED = [
    (0x0E00, 0x0EFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x19E0, 0x19FF),
    (0x3005, 0x3007),
    (0x3021, 0x3029),
    (0x3038, 0x303B),
    (0x3040, 0x30FF),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA9E0, 0xA9FF),
    (0xAA60, 0xAA7F),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x3FFFF),
]
STEMMER = porter.PorterStemmer()


def unicode_tokens(text: str) -> list[str]:
    tokens, word, single = [], "", False
    for c in "".join(ch.lower() for ch in text):
        cat = unicodedata.category(c)[0]
        if c == "\n" or cat not in "LMN":
            if word:
                tokens.append(word)
            word, single = "", False
        elif cat == "M":
            word += c
        elif any(a <= ord(c) <= b for a, b in UNSEGMENTED):
            if word:
                tokens.append(word)
            word, single = c, True
        else:
            if single:
                tokens.append(word)
                word, single = "", False
            word += c
    if word:
        tokens.append(word)
    return tokens


class UnicodeTokenizer:
    def __init__(self, stem: bool) -> None:
        self.stem = stem

    def tokenize(self, text: str) -> list[str]:
        toks = unicode_tokens(text)
        if self.stem:
            toks = [
                STEMMER.stem(t) if len(t) > 3 and t.isascii() and t.isalnum() else t for t in toks
            ]
        return toks


def unicode_records(all_items, rng: random.Random) -> list[str]:
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    recs = []
    for i, (spec, _, hyp, ref) in enumerate(all_items):
        other = rng.randrange(len(all_items)) if rng.random() < 0.2 else None
        refs = [ref] if other is None else [ref, all_items[other][3]]
        # The tokens of the generated texts (the real lines are long: their scores test them).
        toks = hx("\x1f".join(unicode_tokens(hyp))) if spec.startswith("x") else "-"
        for stem in (False, True):
            sc = rouge_scorer.RougeScorer(types, tokenizer=UnicodeTokenizer(stem))
            res = sc.score_multi(refs, hyp)
            vals = " ".join(
                f"{fb(res[t].precision)},{fb(res[t].recall)},{fb(res[t].fmeasure)}" for t in types
            )
            recs.append(f"U {i} {'-' if other is None else other} {toks} {int(stem)} {vals}")
    return recs


def xlsum_records(all_items) -> list[str]:
    from multilingual_rouge import rouge_scorer as mrs
    from multilingual_rouge import tokenization_wrapper as mtok

    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    texts = {
        None: [i for i, it in enumerate(all_items) if "en" in it[0]][::4]
        + list(range(len(FIXED), len(FIXED) + 30)),
        "english": [i for i, it in enumerate(all_items) if "zh-en" in it[0]][::3],
        "chinese": [i for i, it in enumerate(all_items) if "en-zh" in it[0]][::3],
        "japanese": [i for i, it in enumerate(all_items) if "en-ja" in it[0]][::3],
        "korean": [i for i, it in enumerate(all_items) if "en-ko" in it[0]][::3],
    }
    for lang in [
        "thai",
        "burmese",
        "hindi",
        "russian",
        "arabic",
        "turkish",
        "bengali",
        "spanish",
        "mundo",
        "amharic",
        "tamil",
        "german",
    ]:
        texts[lang] = list(range(len(FIXED) - 2)) + list(range(len(FIXED), len(FIXED) + 25))
    recs = []
    for lang, its in texts.items():
        for stem in (False, True):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    sc = mrs.RougeScorer(types, use_stemmer=stem, lang=lang)
                    sc.score("a", "a")
            except Exception as e:
                why = type(e).__name__
                recs.append(f"L {lang} {int(stem)} E{why}")
                continue
            recs.append(f"L {lang} {int(stem)} ok")

            def sents(text: str, stemmer: Any = sc._stemmer) -> str:
                ss = [s for s in text.split("\n") if len(s)]
                toks = [mtok.tokenize(s, stemmer) for s in ss]
                return hx(str(len(toks)) + "".join("\x1e" + "\x1f".join(t) for t in toks))

            for i in its:
                _, _, hyp, ref = all_items[i]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    tt = mtok.tokenize(ref, sc._stemmer, sc._tokenizer)
                    pt = mtok.tokenize(hyp, sc._stemmer, sc._tokenizer)
                    res = sc.score(ref, hyp)
                    ts, ps = sents(ref), sents(hyp)
                vals = " ".join(
                    f"{fb(res[t].precision)},{fb(res[t].recall)},{fb(res[t].fmeasure)}"
                    for t in types
                )
                recs.append(
                    f"X {i} {hx(chr(0x1F).join(tt))} {hx(chr(0x1F).join(pt))} {ts} {ps} {vals}"
                )
    return recs


def write(name: str, header: str, recs: list[str]) -> None:
    path = OUT / (name + ".gz")
    text = f"# {header}\n" + "\n".join(recs) + "\n"
    # gzip (mtime 0: the same input gives the same bytes): hex and float bits compress ~8x.
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{path.relative_to(ROOT)}: {len(recs)} records, {path.stat().st_size} bytes")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    jieba.setLogLevel(60)
    rng = random.Random(39)
    all_items = items(rng)
    py = f"Python {sys.version.split()[0]}"
    write(
        "pltrdy.txt",
        f"rouge {rouge.__version__}, {py}; see tests/rouge_dialects/make_golden.py",
        pltrdy_records(rouge, all_items, random.Random(1)),
    )
    write(
        "chinese.txt",
        f"rouge-chinese {rouge_chinese.__version__}, jieba {jieba.__version__}, {py}",
        pltrdy_records(rouge_chinese, chinese_items(all_items), random.Random(2)),
    )
    write(
        "unicode.txt",
        "rouge-score 0.1.2 + rapidbleu's Unicode tokenizer "
        f"(Unicode {unicodedata.unidata_version})",
        unicode_records(all_items, random.Random(3)),
    )
    write("xlsum.txt", f"multilingual-rouge 0.0.1, {py}", xlsum_records(all_items))


if __name__ == "__main__":
    main()
