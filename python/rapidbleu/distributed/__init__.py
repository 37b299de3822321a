"""Distributed scoring: any metric over a Ray Dataset, a Spark DataFrame or a Dask collection.

``import rapidbleu`` imports none of this, and nothing here imports an engine until one of its
functions runs:

- :mod:`rapidbleu.distributed.ray` (``pip install "rapidbleu[ray]"``): corpus scores,
  Poisson-bootstrap confidence intervals, paired comparisons and sentence-score columns over a
  ``ray.data.Dataset``;
- :mod:`rapidbleu.distributed.recipes.spark` and :mod:`rapidbleu.distributed.recipes.dask`:
  short recipes on the same block protocol.

The engine-free parts: :mod:`~rapidbleu.distributed.columns` (reading and checking columns),
:mod:`~rapidbleu.distributed.blocks` (the block protocol and why it is exact),
:mod:`~rapidbleu.distributed.poisson` (the Poisson bootstrap) and
:mod:`~rapidbleu.distributed.result` (what a run returns). See ``docs/distributed.md``.
"""
