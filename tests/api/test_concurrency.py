"""Many Python threads, each with different options, give bitwise the results of one thread.

Each job is one call of the public API with its own options (every metric of
:data:`fuzz_families.METRICS` with drawn options and core thread counts, token IDs, NLTK's
batch); the jobs run once in order on one thread, then 16 threads run them all, several times
each, in a shuffled order, at once. Every result must be identical: the same floats bit for
bit (compared through ``float.hex``), the same statistics arrays. The core releases the GIL
while it counts, so the threads really overlap in Rust; on a free-threaded CPython (3.13t)
they would overlap in Python too (see docs/notes/reliability.md: it could not be installed
on the build machine).
"""

from __future__ import annotations

import random
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np
from conftest import corpora, examples
from fuzz_families import METRICS
from fuzzstats import record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rapidbleu.dialects import nltk as rb_nltk
from rapidbleu.metrics.bleu.tokens import token_statistics

THREADS = 16
REPEATS = 6


def _bits(value: Any) -> Any:
    """A result as something compared bit for bit (floats by ``float.hex``)."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return tuple(_bits(v) for v in value)
    return value


def _jobs(draw: Any) -> list[Callable[[], Any]]:
    jobs: list[Callable[[], Any]] = []
    for family in METRICS:
        for _ in range(3):
            options = draw(family.options)
            extra = draw(family.extra)
            hyps, refs = draw(corpora(draw(st.integers(1, 2)), max_segments=12))

            def job(
                f: Any = family, o: Any = options, e: Any = extra, h: Any = hyps, r: Any = refs
            ) -> Any:
                metric = f.ours(**o, **e)
                score = metric.corpus_score(h, r)
                return (score.score, str(score), metric.sentence_scores(h, r))

            jobs.append(job)
    ids = st.lists(st.lists(st.integers(0, 9), max_size=20), min_size=1, max_size=8)
    hyp_ids = draw(ids)
    ref_ids = [[draw(st.lists(st.integers(0, 9), max_size=20))] for _ in hyp_ids]
    order = draw(st.integers(1, 6))
    threads = draw(st.sampled_from([0, 1, 2, 4]))
    jobs.append(
        lambda: token_statistics(
            hyp_ids, ref_ids, max_order=order, per_segment=True, num_threads=threads
        )[0]
    )
    method = draw(st.integers(0, 4))
    sf = getattr(rb_nltk.SmoothingFunction(), f"method{method}")

    def nltk_job() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return rb_nltk.sentence_bleu_batch(ref_ids, hyp_ids, smoothing_function=sf)

    jobs.append(nltk_job)
    return jobs


@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_threads_with_different_options_equal_one_thread(data: Any) -> None:
    jobs = _jobs(data.draw)
    expected = [_bits(job()) for job in jobs]
    order = [i for i in range(len(jobs)) for _ in range(REPEATS)]
    random.Random(len(jobs)).shuffle(order)
    start = threading.Barrier(THREADS)

    def run(i: int) -> tuple[int, Any]:
        if i < THREADS:
            start.wait(timeout=120)  # the first calls of all threads begin together
        return order[i], _bits(jobs[order[i]]())

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(run, range(len(order))))
    for k, got in results:
        same = got == expected[k]
        record("concurrency", "ok" if same else "differed")
        assert same, f"job {k} differs on a thread"
