"""mbrs' own BLEU, chrF and TER metrics and MBR decoders, imported from the installed mbrs 0.1.8.

Unlike mbrs_pairwise.py (which carries mbrs' code path), this program runs the installed mbrs'
classes, unchanged (mbrs_light.py says how they are imported without mbrs' model metrics):
``MetricBLEU``, ``MetricChrF`` (chrF and chrF++) and ``MetricTER``, each with its ``score``,
``scores``, ``pairwise_scores``, ``expected_scores`` and ``corpus_score``; ``DecoderMBR`` on
each, ``DecoderAggregateMBR`` on BLEU and chrF (its reference aggregation, with and without
``reference_lprobs``). Options beyond the defaults: lowercased BLEU with ``floor`` smoothing,
chrF with ``eps_smoothing`` and whitespace, case-sensitive TER, and one BLEU with
``effective_order=False``, whose batch calls mbrs must answer itself (sacreBLEU logs a
warning per sentence call).

The candidates: those of mbrs_pairwise.py (real WMT22 en-de outputs of one source segment,
then perturbed copies), then seeded random strings over all of Unicode (no surrogates), with
spaces and punctuation. Each result is recorded with its type: a tensor as its ``dtype``, shape
and values (float32 values are exact as Python floats), a float as itself, a decoder's output
as its fields.

    python mbrs_metrics.py --out result.json [--k 24] [--ter-k 10]
"""

from __future__ import annotations

import random
from typing import Any

from _common import Recorder, parser
from mbrs_light import load
from mbrs_pairwise import candidates


def unicode_lines(n: int, seed: int = 36) -> list[str]:
    """``n`` seeded lines of words drawn from all of Unicode (no surrogates), some repeated."""
    rng = random.Random(seed)
    vocab = [
        "".join(
            chr(rng.choice([rng.randrange(0x20, 0xD800), rng.randrange(0xE000, 0x110000)]))
            for _ in range(rng.randint(1, 5))
        )
        for _ in range(40)
    ] + [".", ",", "!", "the", "a"]
    return [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def typed(value: Any) -> Any:
    """``value`` with its type: tensors, floats, decoder outputs (dataclasses), lists."""
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        return {
            "type": type(value).__name__,
            "dtype": str(value.dtype),
            "shape": list(value.shape),
            "values": value.tolist(),
        }
    if hasattr(value, "__dataclass_fields__"):
        return {
            "type": type(value).__name__,
            **{k: typed(getattr(value, k)) for k in value.__dataclass_fields__},
        }
    if isinstance(value, (list, tuple)):
        return [typed(v) for v in value]
    return {"type": type(value).__name__, "value": value}


def record(rec: Recorder, key: str, metric: Any, hyps: list[str], aggregate: bool) -> None:
    """Records every call of ``metric`` on ``hyps`` (hypotheses = pseudo-references)."""
    import torch
    from mbrs.decoders import DecoderAggregateMBR, DecoderMBR

    refs = hyps[::-1]
    rec.run(f"{key} score", lambda: typed([metric.score(h, r) for h, r in zip(hyps, refs)]))
    rec.run(f"{key} scores", lambda: typed(metric.scores(hyps, refs)))
    rec.run(f"{key} pairwise_scores", lambda: typed(metric.pairwise_scores(hyps, hyps)))
    rec.run(f"{key} expected_scores", lambda: typed(metric.expected_scores(hyps, hyps)))
    rec.run(f"{key} corpus_score", lambda: typed(metric.corpus_score(hyps, [refs])))
    decoder = DecoderMBR(DecoderMBR.Config(), metric)
    rec.run(f"{key} DecoderMBR", lambda: typed(decoder.decode(hyps, hyps, nbest=3)))
    if aggregate:
        agg = DecoderAggregateMBR(DecoderAggregateMBR.Config(), metric)
        lprobs = torch.linspace(-3.0, 0.0, len(hyps))
        rec.run(f"{key} DecoderAggregateMBR", lambda: typed(agg.decode(hyps, hyps, nbest=2)))
        rec.run(
            f"{key} DecoderAggregateMBR lprobs",
            lambda: typed(agg.decode(hyps, hyps, nbest=2, reference_lprobs=lprobs)),
        )


def main() -> None:
    p = parser(__doc__, n=0)
    p.add_argument("--k", type=int, default=24, help="candidates (hypotheses = references)")
    p.add_argument("--ter-k", type=int, default=10, help="candidates for TER")
    args = p.parse_args()
    m = load()
    configs: list[tuple[str, Any, Any]] = [
        ("bleu", m.MetricBLEU, m.MetricBLEU.Config(num_workers=2)),
        (
            "bleu-lc-floor",
            m.MetricBLEU,
            m.MetricBLEU.Config(lowercase=True, smooth_method="floor", num_workers=2),
        ),
        ("chrf", m.MetricChrF, m.MetricChrF.Config(num_workers=2)),
        ("chrf++", m.MetricChrF, m.MetricChrF.Config(word_order=2, num_workers=2)),
        (
            "chrf-eps-ws",
            m.MetricChrF,
            m.MetricChrF.Config(eps_smoothing=True, whitespace=True, num_workers=2),
        ),
        ("ter", m.MetricTER, m.MetricTER.Config(num_workers=2)),
        ("ter-cased", m.MetricTER, m.MetricTER.Config(case_sensitive=True, num_workers=2)),
    ]
    real = candidates(args.data, args.k)
    rec = Recorder()
    for name, cls, cfg in configs:
        k = args.ter_k if name.startswith("ter") else args.k
        for texts_name, hyps in (("wmt22", real[:k]), ("unicode", unicode_lines(k))):
            aggregate = name.startswith(("bleu", "chrf"))
            record(rec, f"{name} {texts_name} {k}x{k}", cls(cfg), hyps, aggregate)
    # sacreBLEU logs a warning per sentence_score without effective_order: mbrs answers.
    plain = m.MetricBLEU(m.MetricBLEU.Config(effective_order=False, num_workers=2))
    rec.run("bleu no-effective-order scores", lambda: typed(plain.scores(real[:4], real[4:8])))
    rec.write(args.out)


if __name__ == "__main__":
    main()
