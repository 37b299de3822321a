"""The Dask recipe on a real local cluster (two worker processes on the loopback address).

Parity (``==``) for several partitionings, the non-additive toy metric folded in partition
order, and errors that name the column and the row in the whole DataFrame.
"""

from __future__ import annotations

from collections.abc import Iterator

import dask.dataframe as dd
import distributed_toys
import pandas as pd
import pytest
from dask.distributed import Client, LocalCluster
from distributed.protocol.pickle import cloudpickle
from distributed_toys import OrderedRefLen, corpus

from rapidbleu import errors
from rapidbleu.distributed.recipes.dask import corpus_score
from rapidbleu.metrics import BLEU

HYPS, REFS = corpus(500, 3, seed=3)
FRAME = pd.DataFrame({"hyp": HYPS, "a": REFS[0], "b": REFS[1], "c": REFS[2]})


@pytest.fixture(scope="module", autouse=True)
def client() -> Iterator[Client]:
    cloudpickle.register_pickle_by_value(distributed_toys)
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c
    cloudpickle.unregister_pickle_by_value(distributed_toys)


@pytest.mark.parametrize("npartitions", [1, 3, 8])
def test_parity(npartitions: int) -> None:
    ddf = dd.from_pandas(FRAME, npartitions=npartitions, sort=False)
    result = corpus_score(ddf, BLEU(), "hyp", ["a", "b"])
    assert result.score.__dict__ == BLEU().corpus_score(HYPS, REFS[:2]).__dict__
    assert result.num_rows == 500 and result.num_blocks == ddf.npartitions
    toy = corpus_score(ddf, OrderedRefLen(), "hyp", ["a", "b", "c"])
    assert toy.score.score == OrderedRefLen().corpus_score(HYPS, REFS).score


def test_errors_name_column_and_row() -> None:
    frame = FRAME.copy()
    frame.loc[321, "b"] = None
    with pytest.raises(errors.NullValueError, match=r"^column 'b', row 321: the cell is null"):
        corpus_score(dd.from_pandas(frame, npartitions=4, sort=False), BLEU(), "hyp", ["a", "b"])
    with pytest.raises(errors.MissingColumnError, match="reference column 'd' is not in"):
        corpus_score(dd.from_pandas(FRAME, npartitions=2), BLEU(), "hyp", ["d"])
