"""lm-evaluation-harness's translation metrics, its own code unchanged (``lm_eval.api.metrics``).

What the harness does for a ``generate_until`` task whose metrics are ``bleu``, ``chrf``,
``chrf++`` or ``ter``: each document gives the passthrough item ``[gold, result]``
(``ConfigurableTask.process_results`` falls back to ``bleu_fn([gold, result])``); the
aggregation (``bleu``, ``chrf``, ``chrfpp``, ``ter``) scores the list of items with
``sacrebleu.corpus_bleu`` / ``corpus_chrf`` / ``corpus_ter``; and ``evaluator_utils`` computes
its standard error with ``stderr_for_metric(agg, bootstrap_iters=min(bootstrap_iters, 100))``:
``bootstrap_stderr`` runs the resamples in a ``multiprocessing.Pool(mp.cpu_count())``, each
chunk with ``random.Random(chunk index)``, so the result does not depend on the run.

The aggregations also run with two references per document (``[[ref_A, ref_B], result]``,
which ``_sacreformat`` turns into reference streams).

    python lm_eval_metrics.py --out result.json [--n 300] [--boot-n 200] [--iters 100]
"""

from __future__ import annotations

from _common import Recorder, parser, wmt22_en_de
from lm_eval.api import metrics

AGGREGATIONS = {
    "bleu": metrics.bleu,
    "chrf": metrics.chrf,
    "chrf++": metrics.chrfpp,
    "ter": metrics.ter,
}
#: The aggregations whose standard error is bootstrapped here (the issue's list).
BOOTSTRAPPED = ("bleu", "chrf")


def main() -> None:
    p = parser(__doc__, n=300)
    p.add_argument("--boot-n", type=int, default=200, help="segments for the bootstrap")
    p.add_argument("--iters", type=int, default=100, help="bootstrap_iters (the harness: 100)")
    args = p.parse_args()
    hyps, ref_a, ref_b = wmt22_en_de(args.data, max(args.n, args.boot_n))
    items = [[r, h] for r, h in zip(ref_a[: args.n], hyps[: args.n])]
    items_2refs = [[[a, b], h] for a, b, h in zip(ref_a[: args.n], ref_b[: args.n], hyps)]
    boot_items = [[r, h] for r, h in zip(ref_a[: args.boot_n], hyps[: args.boot_n])]

    rec = Recorder()
    for name, agg in AGGREGATIONS.items():
        rec.run(name, lambda agg=agg: agg(items))
    for name, agg in AGGREGATIONS.items():
        rec.run(f"{name} 2 refs", lambda agg=agg: agg(items_2refs))
    for name in BOOTSTRAPPED:
        stderr_fn = metrics.stderr_for_metric(AGGREGATIONS[name], bootstrap_iters=args.iters)
        assert stderr_fn is not None
        rec.run(f"{name}_stderr", lambda f=stderr_fn: f(boot_items))
    rec.write(args.out)


if __name__ == "__main__":
    main()
