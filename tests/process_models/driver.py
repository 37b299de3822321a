"""Scores in a parent, then in a child made by one process model; exits 0 when they are ``==``.

Usage: ``python driver.py MODEL DATA SPM_MODEL`` (run by ``test_process_models.py`` in a
subprocess with a timeout: a child that deadlocks fails the test instead of hanging the suite).
The parent scores first, so the child inherits started thread pools, loaded MeCab and
SentencePiece models and warm per-thread state: what used to deadlock.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from workloads import results, same

DATA = Path(sys.argv[2]) if len(sys.argv) > 2 else Path()
SPM = sys.argv[3] if len(sys.argv) > 3 else ""


def child_results(_: Any = None) -> dict[str, Any]:
    """The workloads, as a child computes them."""
    return results(DATA, SPM)


def _os_fork() -> dict[str, Any]:
    """A bare ``os.fork()``: the child sends its results back through a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 1
        try:
            with os.fdopen(write, "wb") as out:
                pickle.dump(child_results(), out)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as inp:
        got: dict[str, Any] = pickle.load(inp)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return got


def _pool(method: str) -> dict[str, Any]:
    with multiprocessing.get_context(method).Pool(2) as pool:
        first, second = pool.map(child_results, range(2))
    assert set(same(first, second)) <= {"pid_differs"}  # both children score alike
    return first


def _executor() -> dict[str, Any]:
    # The default context: fork on Linux before Python 3.14.
    with concurrent.futures.ProcessPoolExecutor(2) as ex:
        return next(ex.map(child_results, range(1)))


def _datasets_map() -> dict[str, Any]:
    import datasets

    ds = datasets.Dataset.from_dict({"i": [0, 1]})
    out = ds.map(lambda row: {"r": pickle.dumps(child_results())}, num_proc=2)
    return pickle.loads(out[0]["r"])  # type: ignore[no-any-return]


class _Scores:
    """A torch map-style dataset whose items are the workloads' results."""

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> bytes:
        return pickle.dumps(child_results())


def _torch_workers() -> dict[str, Any]:
    from torch.utils.data import DataLoader

    loader = DataLoader(_Scores(), batch_size=None, num_workers=2)  # type: ignore[arg-type]
    return pickle.loads(next(iter(loader)))  # type: ignore[no-any-return]


MODELS = {
    "os.fork": _os_fork,
    "mp-fork": lambda: _pool("fork"),
    "mp-spawn": lambda: _pool("spawn"),
    "mp-forkserver": lambda: _pool("forkserver"),
    "ProcessPoolExecutor": _executor,
    "datasets.map": _datasets_map,
    "torch.DataLoader": _torch_workers,
}


if __name__ == "__main__":
    parent = results(DATA, SPM)
    child = MODELS[sys.argv[1]]()
    bad = same(parent, child)
    print(f"{sys.argv[1]}: {len(parent)} workloads, differing: {bad}")
    sys.exit(1 if bad else 0)
