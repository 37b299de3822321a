"""HELM's ``bleu_1`` and ``bleu_4``, its own code unchanged (crfm-helm).

HELM scores a generation task's ``bleu_1`` / ``bleu_4`` in
``helm.benchmark.metrics.evaluate_reference_metrics.compute_reference_metrics``: for each
instance, the best over its correct references of ``bleu_1(gold, pred) = sentence_bleu(
[word_tokenize(gold)], word_tokenize(pred), weights=(1, 0, 0, 0))`` (``bleu_4``: weights
``(0, 0, 0, 1)``), NLTK's ``sentence_bleu``; the run's value is the mean over instances (the
``Stat``s merged). This program builds HELM's own ``RequestState``s (one completion, one or two
correct references) and calls ``compute_reference_metrics`` on each.

NLTK's ``word_tokenize`` needs the ``punkt_tab`` data, which HELM downloads at import when it is
missing (``install_nltk_resources``); offline, point ``NLTK_DATA`` at a folder that has it
(tests/accelerate/test_clients.py makes an untrained one).

    python helm_metrics.py --out result.json [--n 300]
"""

from __future__ import annotations

from typing import Any

from _common import Recorder, parser, wmt22_en_de
from helm.benchmark.adaptation.adapter_spec import AdapterSpec
from helm.benchmark.adaptation.request_state import RequestState
from helm.benchmark.metrics.evaluate_reference_metrics import compute_reference_metrics
from helm.benchmark.metrics.metric_name import MetricName
from helm.benchmark.metrics.statistic import Stat
from helm.benchmark.scenarios.scenario import CORRECT_TAG, Input, Instance, Output, Reference
from helm.common.request import GeneratedOutput, Request, RequestResult

NAMES = ["bleu_1", "bleu_4"]


def request_state(pred: str, golds: list[str]) -> RequestState:
    """One instance with its correct references, and the model's one completion."""
    instance = Instance(
        input=Input(text=""),
        references=[Reference(Output(text=g), tags=[CORRECT_TAG]) for g in golds],
    )
    result = RequestResult(
        success=True,
        embedding=[],
        completions=[GeneratedOutput(text=pred, logprob=0.0, tokens=[])],
        cached=False,
    )
    return RequestState(
        instance=instance,
        reference_index=None,
        request_mode=None,
        train_trial_index=0,
        output_mapping=None,
        request=Request(),
        result=result,
        num_train_instances=0,
        prompt_truncated=False,
    )


def score(states: list[RequestState]) -> dict[str, Any]:
    """``compute_reference_metrics`` on each instance: the values, and HELM's merged means."""
    spec = AdapterSpec(num_outputs=1)
    per_instance: dict[str, list[float]] = {name: [] for name in NAMES}
    merged = {name: Stat(MetricName(name)) for name in NAMES}
    for state in states:
        # The metric service serves other metrics (e.g. code evaluation); BLEU does not use it.
        for stat in compute_reference_metrics(NAMES, spec, state, None):
            if stat.name.name in merged:
                per_instance[stat.name.name].append(stat.sum)
                merged[stat.name.name].merge(stat)
    return {
        "per_instance": per_instance,
        "mean": {name: s.mean for name, s in merged.items()},
    }


def main() -> None:
    args = parser(__doc__, n=300).parse_args()
    hyps, ref_a, ref_b = wmt22_en_de(args.data, args.n)
    one_ref = [request_state(h, [a]) for h, a in zip(hyps, ref_a)]
    two_refs = [request_state(h, [a, b]) for h, a, b in zip(hyps, ref_a, ref_b)]
    rec = Recorder()
    rec.run("bleu_1 bleu_4", lambda: score(one_ref))
    rec.run("bleu_1 bleu_4 2 refs", lambda: score(two_refs))
    rec.write(args.out)


if __name__ == "__main__":
    main()
