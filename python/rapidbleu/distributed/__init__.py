"""Distributed scoring: any metric over a Ray Dataset, a Spark DataFrame or a Dask collection.

``import rapidbleu`` imports none of this, and nothing here imports an engine until one of its
functions runs:

- :mod:`rapidbleu.distributed.ray` (the ``ray`` extra): corpus scores,
  Poisson-bootstrap confidence intervals, paired comparisons and sentence-score columns over a
  ``ray.data.Dataset`` (run in the stages of :mod:`rapidbleu.distributed.ray_stages`);
- :mod:`rapidbleu.distributed.recipes.spark` and :mod:`rapidbleu.distributed.recipes.dask`:
  short recipes on the same block protocol.

The engine-free parts: :mod:`~rapidbleu.distributed.columns` (reading and checking columns),
:mod:`~rapidbleu.distributed.blocks` (the block protocol and why it is exact),
:mod:`~rapidbleu.distributed.poisson` (the Poisson bootstrap) and
:mod:`~rapidbleu.distributed.result` (what a run returns). See ``docs/distributed.md``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["engine"]

#: What each engine is called in the message.
_NAMES = {"dask": "Dask", "spark": "PySpark with pyarrow"}


def engine(module: str, extra: str, user: str) -> ModuleType:
    """Imports an engine's ``module``, or raises an error that names the extra to install.

    Args:
        module: The module to import (``"dask"``, ``"pyspark"``, ``"pyarrow"``).
        extra: The rapidbleu extra that installs it (``"dask"``, ``"spark"``).
        user: The rapidbleu module that needs it, for the message.

    Raises:
        rapidbleu.errors.MissingDependencyError: ``module`` cannot be imported.

    Example:
        >>> engine("json", "dask", "doc").__name__
        'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        from rapidbleu.errors import MissingDependencyError
        from rapidbleu.extras import install_hint

        raise MissingDependencyError(
            f"{user} needs {_NAMES.get(extra, extra)} (the {extra!r} extra; {module!r} could "
            f"not be imported: {e}): {install_hint(extra)}"
        ) from e
