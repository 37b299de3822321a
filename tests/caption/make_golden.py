"""pycocoevalcap 1.2's scores on generated and real captions, written as the caption golden file.

The file is crates/rapidbleu-core/tests/data/caption_golden.txt (out of tests/data, whose files the
real-data tests read as text).

Every case is a ``gts``/``res`` pair (image id -> tokenized captions) scored by
``Bleu(n).compute_score``, ``Rouge().compute_score`` and ``Cider(n, sigma).compute_score``; the
file keeps the corpus values, every per-image score, BLEU's corpus statistics and the text
``Bleu.compute_score`` prints. Real-text cases name their files (under tests/data, or under
``$RAPIDBLEU_DATA`` or ../shared/data: the ``shared`` cases) instead of holding the captions.
The CIDEr-D reward cases score a batch against the document frequencies of another corpus,
with the log of the corpus's image count (``corpus``) or of the batch's (``batch``:
CiderScorer unchanged).

Format (one record per line, tab-separated; captions are JSON strings, floats ``repr``):

    numpy <version>
    log <np.log(1.0)> <np.log(2.0)> ...              NumPy's log of 1..max images
    case <name> <bleu_n> <cider_n> <sigma>
    img <hyp> <ref> ...                               generated cases: the captions
    real <spec>                                       real cases: see real_images()
    synth <images> <period>                           synthetic cases: see synth_images(); the
                                                      `s` lines are the first <period> images,
                                                      whose scores every later image repeats
    bleu <corpus BLEU-1..n>
    bleu_stats <testlen> <reflen> <guess 1..n> <correct 1..n> <ratio>
    printed <JSON string: what Bleu.compute_score printed>
    rouge <mean>
    cider <mean>                                      or ValueError (no reference n-gram)
    s <BLEU-1..n> <ROUGE-L> <CIDEr-D>                 one line per image, in order
    end
    reward <name> <corpus case> <batch case> <first> <count>
    r <corpus-mode score> <batch-mode score>          one line per sample
    end

Run with the branch's venv (pycocoevalcap installed), from a checkout beside shared/data or
with RAPIDBLEU_DATA set:
    RAPIDBLEU_DATA=/work/shared/data .venv/bin/python tests/caption/make_golden.py
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.cider.cider_scorer import CiderScorer
from pycocoevalcap.rouge.rouge import Rouge

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SHARED = Path(os.environ.get("RAPIDBLEU_DATA", ROOT.parent / "shared" / "data"))
OUT = ROOT / "crates" / "rapidbleu-core" / "tests" / "data" / "caption_golden.txt"

Gts = dict[Any, list[str]]

# Words with repeats, Unicode (accents, CJK, emoji, combining marks, RTL) and separators:
# split() (BLEU, CIDEr-D) takes every Python whitespace, split(" ") (ROUGE-L) only U+0020.
WORDS = [
    "a",
    "a",
    "the",
    "dog",
    "cat",
    "on",
    "a",
    "red",
    "ball",
    "the",
    "café",
    "日本",
    "語",
    "😀",
    "ß",
    "e\u0301",
    "שלום",
    "x\u200by",
    "A",
    "DOG",
    "dog.",
    "-",
    "...",
]
SEPS = [" "] * 12 + ["  ", "\t", "\u00a0", "\u3000", "\n", "\u2028", "\x1c", "\u0085"]


def caption(rng: random.Random, max_words: int) -> str:
    kind = rng.random()
    if kind < 0.06:
        return ""
    if kind < 0.09:
        return rng.choice([" ", "  ", "\t", "\u3000"])
    if kind < 0.15:
        return rng.choice(WORDS)
    words = [
        rng.choice(WORDS[: rng.randint(3, len(WORDS))]) for _ in range(rng.randint(1, max_words))
    ]
    text = words[0]
    for w in words[1:]:
        text += rng.choice(SEPS) + w
    if rng.random() < 0.1:
        text = rng.choice(SEPS) + text + rng.choice(SEPS)
    return text


def generated(
    rng: random.Random, images: int, refs: tuple[int, int], max_words: int
) -> tuple[Gts, Gts]:
    gts: Gts = {}
    res: Gts = {}
    for i in range(images):
        key: Any = rng.choice([i, f"img{i}", str(i)]) if i % 7 == 0 else i
        gts[key] = [caption(rng, max_words) for _ in range(rng.randint(*refs))]
        res[key] = [caption(rng, max_words)]
    return gts, res


def lines(path: Path) -> list[str]:
    # Bytes decoded as UTF-8 and split at b"\n" only (no universal newlines): a line keeps
    # every other character, U+2028, \r and \x1c included.
    return path.read_bytes().decode("utf-8").split("\n")[:-1]


def real_images(spec: str) -> tuple[Gts, Gts]:
    """Images named by `spec`: `root|hyp-file|ref-file,ref-file,...|first|count`, or
    `root|file|groups|first|count` (consecutive groups of 6 lines: hypothesis, 5 references)."""
    root, hyp, refs, first, count = spec.split("|")
    base = DATA if root == "data" else SHARED
    lo, n = int(first), int(count)
    if refs == "groups":
        text = lines(base / hyp)
        groups = [text[i : i + 6] for i in range(0, len(text) - 5, 6)][lo : lo + n]
        return {i: g[1:] for i, g in enumerate(groups)}, {i: [g[0]] for i, g in enumerate(groups)}
    hyps = lines(base / hyp)[lo : lo + n]
    ref_sets = [lines(base / r)[lo : lo + n] for r in refs.split(",")]
    gts = {i: [rs[i] for rs in ref_sets] for i in range(len(hyps))}
    return gts, {i: [h] for i, h in enumerate(hyps)}


def synth_caption(i: int, r: int, length: int) -> str:
    return " ".join(f"w{(i * 31 + r * 17 + t * t * 7) % 13}" for t in range(length))


def synth_images(images: int) -> tuple[Gts, Gts]:
    """Image i: a hypothesis of 3 + i % 5 words and 1 + i % 3 references of 2 + (i + r) % 6,
    words by a formula (the Rust test makes the same). Its content repeats every 390 images."""
    gts = {
        i: [synth_caption(i, r, 2 + (i + r) % 6) for r in range(1, 2 + i % 3)]
        for i in range(images)
    }
    return gts, {i: [synth_caption(i, 0, 3 + i % 5)] for i in range(images)}


def fmt(x: float) -> str:
    return repr(float(x))


def score_case(
    name: str,
    gts: Gts,
    res: Gts,
    bleu_n: int,
    cider_n: int,
    sigma: float,
    period: int | None = None,
) -> tuple[list[str], dict[str, Any]]:
    out = [f"case\t{name}\t{bleu_n}\t{cider_n}\t{fmt(sigma)}"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        bleu, bleu_imgs = Bleu(bleu_n).compute_score(gts, res)
    rouge, rouge_imgs = Rouge().compute_score(gts, res)
    try:
        cider, cider_imgs = Cider(n=cider_n, sigma=sigma).compute_score(gts, res)
    except ValueError:
        # No reference has an n-gram: `max(self.document_frequency.values())` of nothing.
        cider, cider_imgs = None, [None] * len(gts)
    out.append("bleu\t" + "\t".join(fmt(b) for b in bleu))
    # The statistics, as Bleu prints them (`print(totalcomps)`, `print("ratio:", ratio)`).
    text = printed.getvalue()
    first, second = text.split("\n")[:2]
    comps = eval(first)
    ratio = float(second.split(" ", 1)[1])
    stats = [comps["testlen"], comps["reflen"], *comps["guess"], *comps["correct"]]
    out.append("bleu_stats\t" + "\t".join(str(v) for v in stats) + "\t" + fmt(ratio))
    out.append("printed\t" + json.dumps(text, ensure_ascii=False))
    out.append("rouge\t" + fmt(rouge))
    out.append("cider\t" + ("ValueError" if cider is None else fmt(cider)))
    rows = [
        [bleu_imgs[k][i] for k in range(bleu_n)] + [rouge_imgs[i], cider_imgs[i]]
        for i in range(len(gts))
    ]
    if period is not None:
        assert all(rows[i] == rows[i % period] for i in range(len(rows)))
        rows = rows[:period]
    for row in rows:
        out.append("s\t" + "\t".join("-" if v is None else fmt(v) for v in row))
    out.append("end")
    return out, {"gts": gts, "res": res}


def caption_lines(gts: Gts, res: Gts) -> list[str]:
    return [
        "img\t" + "\t".join(json.dumps(c, ensure_ascii=False) for c in res[k] + gts[k]) for k in gts
    ]


class _LenAs(list):  # type: ignore[type-arg]
    """A list whose len() is another number: CiderScorer.compute_cider takes the log of
    `len(self.crefs)` as its reference length, so this gives it the corpus's image count while
    it scores the batch's references (its code runs unchanged)."""

    def __init__(self, items: list[Any], n: int) -> None:
        super().__init__(items)
        self._n = n

    def __len__(self) -> int:
        return self._n


def reward_case(
    name: str,
    corpus: dict[str, Any],
    batch: dict[str, Any],
    first: int,
    count: int,
    corpus_name: str,
    batch_name: str,
) -> list[str]:
    df_scorer = CiderScorer(n=4, sigma=6.0)
    for k in corpus["gts"]:
        df_scorer += (None, corpus["gts"][k])
    df_scorer.compute_doc_freq()
    df = dict(df_scorer.document_frequency)
    keys = list(batch["gts"])[first : first + count]
    out = [f"reward\t{name}\t{corpus_name}\t{batch_name}\t{first}\t{count}"]
    scores = []
    for mode in ("corpus", "batch"):
        sc = CiderScorer(n=4, sigma=6.0)
        for k in keys:
            sc += (batch["res"][k][0], batch["gts"][k])
        sc.document_frequency = defaultdict(float, df)
        if mode == "corpus":
            sc.crefs = _LenAs(sc.crefs, len(corpus["gts"]))
        scores.append(sc.compute_cider())
    out += [f"r\t{fmt(a)}\t{fmt(b)}" for a, b in zip(*scores)]
    out.append("end")
    return out


def main() -> int:
    rng = random.Random(20261128)
    out: list[str] = [f"numpy\t{np.__version__}"]
    body: list[str] = []
    cases: dict[str, dict[str, Any]] = {}
    max_images = 1

    def add(
        name: str,
        gts: Gts,
        res: Gts,
        extra: list[str],
        bleu_n: int = 4,
        cider_n: int = 4,
        sigma: float = 6.0,
        period: int | None = None,
    ) -> None:
        nonlocal max_images
        lines_, case = score_case(name, gts, res, bleu_n, cider_n, sigma, period)
        body.extend(lines_[:1] + extra + lines_[1:])
        cases[name] = case
        max_images = max(max_images, len(gts))

    gen_specs = [(1, (1, 1), 6), (1, (3, 3), 6), (2, (1, 2), 5), (3, (1, 5), 8)]
    gen_specs += [(n, (k, k), 12) for k in range(1, 21) for n in (5, 40)]
    gen_specs += [(200, (1, 20), 15), (300, (5, 5), 20), (64, (1, 3), 2), (300, (2, 6), 30)]
    for j, (n, refs, words) in enumerate(gen_specs):
        gts, res = generated(rng, n, refs, words)
        add(f"gen{j}", gts, res, caption_lines(gts, res))
    # Special shapes: every hypothesis empty, one-word, repeated words; other n and sigma.
    gts, res = generated(rng, 30, (1, 4), 6)
    add("empty_hyps", gts, {k: [""] for k in res}, caption_lines(gts, {k: [""] for k in res}))
    one = {k: [rng.choice(WORDS)] for k in res}
    add("one_word_hyps", gts, one, caption_lines(gts, one))
    rep = {k: [" ".join(["a"] * rng.randint(1, 12))] for k in res}
    rgts = {k: [" ".join(["a"] * rng.randint(0, 9)) + " b" for _ in range(3)] for k in res}
    add("repeated", rgts, rep, caption_lines(rgts, rep))
    gts, res = generated(rng, 50, (1, 6), 10)
    # pycocoevalcap counts n-grams up to 4 whatever n (cook_refs/cook_test use their default n=4):
    # Bleu(n > 4) and Cider(n < 4) raise IndexError; Cider(n > 4) averages n orders, 4 non-zero.
    for bn, cn, sg in [(1, 4, 6.0), (2, 5, 2.5), (3, 6, 10.0)]:
        add(f"orders_{bn}_{cn}", gts, res, caption_lines(gts, res), bn, cn, sg)

    real = [
        (
            "wmt17_de",
            "data|wmt17.en-de/hyp.uedin-nmt.4722.de|wmt17.en-de/ref.A.de,wmt17.en-de/hyp.C-3MA.4959.de,"
            "wmt17.en-de/hyp.FBK.4870.de,wmt17.en-de/hyp.online-A.0.de,wmt17.en-de/hyp.online-B.0.de|0|3004",
        ),
        (
            "zhen_en",
            "data|wmt22.zh-en/hyp.NiuTrans.en|wmt22.zh-en/ref.A.en,wmt22.zh-en/ref.B.en|0|1875",
        ),
        (
            "zhen_b",
            "data|wmt22.zh-en/ref.B.en|wmt22.zh-en/ref.A.en,wmt22.zh-en/hyp.NiuTrans.en|1000|256",
        ),
        ("src_en", "data|wmt22.en-zh/src.en|groups|0|400"),
    ]
    if (SHARED / "wmt22.zh-en").is_dir():
        real.append(
            (
                "shared_zhen_en",
                "shared|wmt22.zh-en/hyp.NiuTrans.en|wmt22.zh-en/ref.A.en,wmt22.zh-en/ref.B.en,"
                "wmt22.zh-en/hyp.HuaweiTSC.en,wmt22.zh-en/hyp.JDExploreAcademy.en,wmt22.zh-en/hyp.Online-B.en|0|1875",
            )
        )
    for name, spec in real:
        gts, res = real_images(spec)
        add(name, gts, res, [f"real\t{spec}"])

    # 9170 images: np.log(9170.0) is one of the integers where NumPy's AVX-512 log differs from
    # libm's, so ref_len (and every score) depends on the table of NumPy's logs.
    gts, res = synth_images(9170)
    add("synth_9170", gts, res, ["synth\t9170\t390"], period=390)

    body += reward_case("reward_en", cases["zhen_en"], cases["zhen_b"], 0, 256, "zhen_en", "zhen_b")
    body += reward_case("reward_gen", cases["gen44"], cases["gen45"], 0, 256, "gen44", "gen45")

    logs = np.log(np.arange(1, max_images + 1, dtype=np.float64))
    # The scalar np.log(float(k)) CiderScorer calls equals the array's element (checked here).
    assert all(np.log(float(k)) == logs[k - 1] for k in range(1, max_images + 1))
    out.append("log\t" + "\t".join(fmt(v) for v in logs))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(out + body) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(cases)} cases)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
