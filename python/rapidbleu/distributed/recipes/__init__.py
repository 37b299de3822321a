"""Short recipes for engines other than Ray Data, on the same block protocol.

- :mod:`~rapidbleu.distributed.recipes.spark`: a Spark DataFrame through ``mapInArrow``
  (the ``spark`` extra: ``pip install pyspark pyarrow``; Java 17 or later).
- :mod:`~rapidbleu.distributed.recipes.dask`: a Dask DataFrame, one task per partition
  (the ``dask`` extra: ``pip install "dask[dataframe]" distributed``).

Each is a corpus score, ``==`` to the single-machine score, with the rows scored; each is
short on purpose, to be read and adapted (bootstrap and sentence scores live in
:mod:`rapidbleu.distributed.ray`).
"""
