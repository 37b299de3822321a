"""The report of a run with worker processes: each process's counts, merged at the end.

The process that turns the mode on with ``RAPIDBLEU_ACCELERATE_REPORT`` set (the *root*) makes
a folder for the run and names it, with its process id, in ``RAPIDBLEU_ACCELERATE_REPORT_RUN``,
which the processes it starts inherit. Every other process of the run (a ``fork`` child, which
starts from empty counts; a ``spawn`` or ``forkserver`` child and a ``subprocess``, whose
``.pth`` start-up turns the mode on) writes its counts to ``<folder>/<pid>.json`` when it ends:
at exit (``atexit``), at the end of a ``multiprocessing`` process (whose ``fork`` children leave
by ``os._exit``, after ``multiprocessing``'s finalizers, which it registers after the fork), or
at ``SIGTERM`` (``Pool.terminate``
and ``with Pool(...)``'s exit end their workers so; the process then dies of the signal as it
would have). The root, at its exit, adds the files to its own counts and reports the whole run
(:func:`rapidbleu.accelerate.profile.report_at_exit`). Counting costs nothing more per call.

A worker still running when the root exits is not counted; a ``fork`` child of a process that
handles ``SIGTERM`` itself keeps that handler, and its counts are written only if it exits.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

from rapidbleu.accelerate.profile import PROFILE, report_at_exit

__all__ = ["RUN_ENV", "start"]

#: ``<root pid>:<folder>`` of the run, inherited by the processes the root starts.
RUN_ENV = "RAPIDBLEU_ACCELERATE_REPORT_RUN"

_folder: list[Path] = []  # this process's run folder, when it is a worker of the run


def start(setting: str) -> None:
    """Makes this process the root of a run (or a worker of its parent's run) for ``setting``."""
    run = os.environ.get(RUN_ENV, "")
    root, _, folder = run.partition(":")
    if not folder or root == str(os.getpid()) or not os.path.isdir(folder):
        folder = tempfile.mkdtemp(prefix="rapidbleu-accelerate-")
        os.environ[RUN_ENV] = f"{os.getpid()}:{folder}"
        atexit.register(_report_run, setting, os.getpid(), Path(folder))
    else:
        _become_worker(Path(folder))
    os.register_at_fork(after_in_child=_forked)
    import multiprocessing.util

    # A multiprocessing child clears the finalizers it inherited, then runs these hooks.
    multiprocessing.util.register_after_fork(_HOOK, _multiprocessing_child)


class _Hook:
    """The object multiprocessing's after-fork registry holds (it keeps weak references)."""


_HOOK = _Hook()


def _multiprocessing_child(_: object) -> None:
    """In a multiprocessing child: write at its end, which is os._exit after the finalizers."""
    if _folder:
        import multiprocessing.util

        multiprocessing.util.Finalize(None, _write, exitpriority=0)


def _forked() -> None:
    """In a ``fork`` child: its own counts from zero, written for the root when it ends."""
    PROFILE.clear()
    _, _, folder = os.environ.get(RUN_ENV, "").partition(":")
    if folder:
        _become_worker(Path(folder))


def _become_worker(folder: Path) -> None:
    first = not _folder
    _folder[:] = [folder]
    if not first:
        return
    atexit.register(_write)
    try:
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: no handler can be set
        pass


def _write() -> None:
    """Writes this process's counts to ``<folder>/<pid>.json`` (replacing what it wrote)."""
    rows = PROFILE.rows()
    if not _folder or not rows:
        return
    path = _folder[0] / f"{os.getpid()}.json"
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(json.dumps(rows), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # the root has already reported and removed the folder
        pass


def _on_sigterm(signum: int, frame: Any) -> None:
    _write()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _report_run(setting: str, pid: int, folder: Path) -> None:
    """At the root's exit: the workers' counts added to its own, then the report."""
    if os.getpid() != pid:
        return
    for path in sorted(folder.glob("*.json")):
        try:
            PROFILE.merge(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    shutil.rmtree(folder, ignore_errors=True)
    report_at_exit(setting, pid)
