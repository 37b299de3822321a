"""lighteval's corpus-level BLEU, chrF, chrF++ and TER, its own code unchanged.

``Metrics.bleu`` / ``chrf`` / ``chrf_plus`` / ``ter`` are ``CorpusLevelMetric``s: per document,
``GenerativePreparator.prepare(doc, model_response)`` keeps ``GenerativeCorpusMetricInput(
golds=doc.get_golds(), preds=model_response.final_text)``, and at the end
``CorpusLevelTranslationMetric(kind).compute_corpus(items)`` scores them with
``sacrebleu.BLEU`` / ``CHRF`` / ``CHRF(word_order=2)`` / ``TER``. Both classes and ``Doc`` are
lighteval's, from ``lighteval.metrics.metrics_corpus``, ``lighteval.metrics.sample_preparator``
and ``lighteval.tasks.requests``.

Two things stand in for parts of lighteval that need torch and transformers (which these
metrics never use), so that lighteval's metric code runs without them:

- the package ``lighteval.metrics`` is registered without running its ``__init__``, which
  imports every metric of lighteval (``metrics_sample``: transformers, BERTScore, ...);
- ``lighteval.models.model_output`` (``import torch``, for tensor fields of its dataclasses) is
  replaced by a module whose ``ModelResponse`` has the two fields ``final_text`` reads.

lighteval 0.13.0 passes chrF's and TER's references per document (``[[gold] for each item]``)
where sacreBLEU expects reference streams; sacreBLEU then scores only the first hypotheses
(huggingface/lighteval#1112). That is what lighteval computes, so it is what is compared here.
Its BLEU calls ``nltk.download("punkt_tab")`` every time (it fails quickly offline and
returns; sacreBLEU needs no NLTK data).

    python lighteval_metrics.py --out result.json [--n 300]
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import Recorder, parser, wmt22_en_de


@dataclass
class ModelResponse:
    """The fields of lighteval's ``ModelResponse`` that ``final_text`` reads (same property)."""

    text: list[str]
    text_post_processed: list[str] | None = None

    @property
    def final_text(self) -> list[str]:
        if self.text_post_processed is not None:
            return self.text_post_processed
        return self.text


def import_lighteval_metrics() -> tuple[Any, Any, Any]:
    """lighteval's CorpusLevelTranslationMetric, GenerativePreparator and Doc (see above)."""
    import lighteval

    package = types.ModuleType("lighteval.metrics")
    package.__path__ = [str(Path(lighteval.__file__).parent / "metrics")]
    sys.modules["lighteval.metrics"] = package
    model_output = types.ModuleType("lighteval.models.model_output")
    model_output.ModelResponse = ModelResponse
    sys.modules["lighteval.models.model_output"] = model_output

    from lighteval.metrics.metrics_corpus import CorpusLevelTranslationMetric
    from lighteval.metrics.sample_preparator import GenerativePreparator
    from lighteval.tasks.requests import Doc

    return CorpusLevelTranslationMetric, GenerativePreparator, Doc


def main() -> None:
    args = parser(__doc__, n=300).parse_args()
    translation_metric, preparator, doc_cls = import_lighteval_metrics()
    hyps, ref_a, ref_b = wmt22_en_de(args.data, args.n)
    docs_1ref = [doc_cls(query="", choices=[a], gold_index=0) for a in ref_a]
    docs_2refs = [
        doc_cls(query="", choices=[a, b], gold_index=[0, 1]) for a, b in zip(ref_a, ref_b)
    ]

    rec = Recorder()
    for refs, docs in (("", docs_1ref), (" 2 refs", docs_2refs)):
        items = [preparator.prepare(doc, ModelResponse(text=[h])) for doc, h in zip(docs, hyps)]
        for kind in ("bleu", "chrf", "chrf++", "ter"):
            metric = translation_metric(kind)
            rec.run(kind + refs, lambda m=metric, items=items: m.compute_corpus(items))
    rec.write(args.out)


if __name__ == "__main__":
    main()
