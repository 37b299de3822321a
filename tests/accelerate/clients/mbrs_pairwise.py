"""mbrs' BLEU, chrF and TER ``pairwise_scores``: the utility matrix of MBR decoding.

mbrs 0.1.8 cannot be imported without torch and model packages: ``mbrs.metrics`` imports every
metric of mbrs (``bert_score``, ``comet``, ``bleurt_pytorch``, transformers), and each metric
returns a ``torch.Tensor``. So this program carries the code path of ``MetricBLEU``,
``MetricChrF`` and ``MetricTER`` (``mbrs/metrics/bleu/metric.py``, ``chrf.py``, ``ter.py``) line for
line, with their default configurations:

- the scorer is sacreBLEU's class, imported from the module mbrs imports it from
  (``sacrebleu.metrics.bleu.BLEU``, ``.chrf.CHRF``, ``.ter.TER``; mbrs also imports
  ``sacrebleu.metrics.helpers`` for its reference aggregation, and so does this program);
- ``pairwise_scores(hypotheses, references)`` maps ``sentence_score(h, [r]).score`` over
  ``itertools.product(hypotheses, references)`` in a ``ProcessPoolExecutor(max_workers=8)``
  with ``chunksize=len(hypotheses)``: BLEU through a static worker whose scorer an
  ``initializer`` builds in each process, chrF and TER through the bound method ``self.score``
  (so the metric object, scorer included, is pickled to the workers);
- ``torch.Tensor(list)`` (float32) of shape ``(H, R)``: here a float32 NumPy array.

tests/accelerate/test_clients.py checks these classes against the installed mbrs' source (the
configurations' defaults, and the scorer, executor and ``map`` calls).

The candidates are those of one WMT22 en-de source segment: every system's output and the
references, then perturbed copies of them (seeded), up to ``--k``; each is scored against all
(hypotheses = references, as in MBR decoding).

    python mbrs_pairwise.py --out result.json [--k 256] [--chrf-k 128] [--ter-k 48]
"""

from __future__ import annotations

import concurrent.futures
import itertools
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
from _common import Recorder, parser, read_lines
from sacrebleu.metrics.bleu import BLEU, MAX_NGRAM_ORDER  # noqa: F401 (mbrs' imports)
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.helpers import (  # noqa: F401 (mbrs' imports)
    extract_all_char_ngrams,
    extract_all_word_ngrams,
    extract_word_ngrams,
)
from sacrebleu.metrics.ter import TER


def tensor(values: list[float], shape: tuple[int, int]) -> np.ndarray:
    """``torch.Tensor(values).view(*shape)``: float32, rounded to nearest as torch does."""
    return np.asarray(values, dtype=np.float32).reshape(shape)


class MetricBLEU:
    """mbrs' ``MetricBLEU`` (``mbrs/metrics/bleu/metric.py``): pairwise_scores and what it uses."""

    @dataclass
    class Config:
        lowercase: bool = False
        force: bool = False
        tokenize: str | None = None
        smooth_method: str = "exp"
        smooth_value: float | None = None
        max_ngram_order: int = 4
        effective_order: bool = True
        trg_lang: str = ""
        num_workers: int = 8

    def __init__(self, cfg: MetricBLEU.Config) -> None:
        self.cfg = cfg
        self.scorer = self._initialize_bleu(cfg)

    @staticmethod
    def _initialize_bleu(cfg: MetricBLEU.Config) -> BLEU:
        scorer = BLEU(
            lowercase=cfg.lowercase,
            force=cfg.force,
            tokenize=cfg.tokenize,
            smooth_method=cfg.smooth_method,
            smooth_value=cfg.smooth_value,
            max_ngram_order=cfg.max_ngram_order,
            effective_order=cfg.effective_order,
            trg_lang=cfg.trg_lang,
        )
        MetricBLEU._score_worker.scorer = scorer
        return scorer

    def score(self, hypothesis: str, reference: str, *_: Any, **__: Any) -> float:
        return self.scorer.sentence_score(hypothesis, [reference]).score

    @staticmethod
    def _score_worker(hypothesis: str, reference: str, *_: Any, **__: Any) -> float:
        return MetricBLEU._score_worker.scorer.sentence_score(hypothesis, [reference]).score

    def pairwise_scores(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        with concurrent.futures.ProcessPoolExecutor(
            max_workers=self.cfg.num_workers,
            initializer=self._initialize_bleu,
            initargs=(self.cfg,),
        ) as executor:
            return tensor(
                list(
                    executor.map(
                        self._score_worker,
                        *zip(*itertools.product(hypotheses, references)),
                        chunksize=len(hypotheses),
                    )
                ),
                (len(hypotheses), len(references)),
            )


class _MetricByMethod:
    """The ``pairwise_scores`` of mbrs' ``MetricChrF`` and ``MetricTER`` (``self.score``)."""

    cfg: Any
    scorer: Any

    def score(self, hypothesis: str, reference: str, *_: Any, **__: Any) -> float:
        return self.scorer.sentence_score(hypothesis, [reference]).score

    def pairwise_scores(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        with concurrent.futures.ProcessPoolExecutor(max_workers=self.cfg.num_workers) as executor:
            return tensor(
                list(
                    executor.map(
                        self.score,
                        *zip(*itertools.product(hypotheses, references)),
                        chunksize=len(hypotheses),
                    )
                ),
                (len(hypotheses), len(references)),
            )


class MetricChrF(_MetricByMethod):
    """mbrs' ``MetricChrF`` (``mbrs/metrics/chrf/metric.py``; ``fastchrf=False``, its default)."""

    @dataclass
    class Config:
        char_order: int = 6
        word_order: int = 0
        beta: int = 2
        lowercase: bool = False
        whitespace: bool = False
        eps_smoothing: bool = False
        num_workers: int = 8
        fastchrf: bool = False  # mbrs' default: sacreBLEU's CHRF, the path carried here

    def __init__(self, cfg: MetricChrF.Config) -> None:
        self.cfg = cfg
        self.scorer = CHRF(
            char_order=cfg.char_order,
            word_order=cfg.word_order,
            beta=cfg.beta,
            lowercase=cfg.lowercase,
            whitespace=cfg.whitespace,
            eps_smoothing=cfg.eps_smoothing,
        )


class MetricTER(_MetricByMethod):
    """mbrs' ``MetricTER`` (``mbrs/metrics/ter/metric.py``)."""

    @dataclass
    class Config:
        normalized: bool = False
        no_punct: bool = False
        asian_support: bool = False
        case_sensitive: bool = False
        num_workers: int = 8

    def __init__(self, cfg: MetricTER.Config) -> None:
        self.cfg = cfg
        self.scorer = TER(
            normalized=cfg.normalized,
            no_punct=cfg.no_punct,
            asian_support=cfg.asian_support,
            case_sensitive=cfg.case_sensitive,
        )


def perturb(line: str, rng: random.Random) -> str:
    """A sampled-looking variant: one to three word deletions, swaps or repeats."""
    words = line.split()
    for _ in range(rng.randint(1, 3)):
        if len(words) < 2:
            break
        i = rng.randrange(len(words))
        op = rng.random()
        if op < 0.4:
            del words[i]
        elif op < 0.8:
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        else:
            words.insert(i, words[rng.randrange(len(words))])
    return " ".join(words)


def candidates(data: Path, k: int, segment: int = 7) -> list[str]:
    """``k`` candidates for one source segment: real outputs, then perturbed copies."""
    folder = data / "wmt22.en-de"
    files = sorted(folder.glob("hyp.*")) + sorted(folder.glob("ref.*"))
    outputs = [read_lines(f)[segment] for f in files]
    rng = random.Random(segment)
    return [
        outputs[i] if i < len(outputs) else perturb(outputs[i % len(outputs)], rng)
        for i in range(k)
    ]


def main() -> None:
    p = parser(__doc__, n=0)
    p.add_argument("--k", type=int, default=256, help="candidates for BLEU")
    # sacreBLEU's chrF and TER are slower per pair (46 s and 17 s for 256 x 256 and 64 x 64).
    p.add_argument("--chrf-k", type=int, default=128, help="candidates for chrF")
    p.add_argument("--ter-k", type=int, default=48, help="candidates for TER")
    args = p.parse_args()
    rec = Recorder()
    runs: list[tuple[str, Callable[[], Any], int]] = [
        ("bleu", lambda: MetricBLEU(MetricBLEU.Config()), args.k),
        ("chrf", lambda: MetricChrF(MetricChrF.Config()), args.chrf_k),
        ("ter", lambda: MetricTER(MetricTER.Config()), args.ter_k),
    ]
    for name, make, k in runs:
        hyps = candidates(args.data, k)
        metric = make()
        rec.run(f"{name} {k}x{k}", lambda m=metric, h=hyps: m.pairwise_scores(h, h))
    rec.write(args.out)


if __name__ == "__main__":
    main()
