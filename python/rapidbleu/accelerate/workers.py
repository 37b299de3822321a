"""The report of a run with worker processes: each process's counts, merged at the end.

The process that turns the mode on with ``RAPIDBLEU_ACCELERATE_REPORT`` set (the *root*) makes
a folder for the run and names it, with its process id, in ``RAPIDBLEU_ACCELERATE_REPORT_RUN``,
which the processes it starts inherit. Every other process of the run (a ``fork`` child, which
starts from empty counts; a ``spawn`` or ``forkserver`` child and a ``subprocess``, whose
``.pth`` start-up turns the mode on) keeps its counts in ``<folder>/<pid>-<unique>.counts``,
a file mapped into its memory and made at its first call
(:mod:`rapidbleu.accelerate.counts_file`): they are on disk however the process ends (at exit,
by ``os._exit``, by ``Pool.terminate``'s SIGTERM, by SIGKILL), and no worker runs anything at
its end. The root, at its exit, adds the files to its own counts and reports the whole run
(:func:`rapidbleu.accelerate.profile.report_at_exit`).

A worker still running when the root exits is counted as far as it has gone.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from rapidbleu.accelerate.counts_file import CountsFile, read_counts
from rapidbleu.accelerate.profile import PROFILE, report_at_exit

__all__ = ["RUN_ENV", "start"]

#: ``<root pid>:<folder>`` of the run, inherited by the processes the root starts.
RUN_ENV = "RAPIDBLEU_ACCELERATE_REPORT_RUN"


def start(setting: str) -> None:
    """Makes this process the root of a run (or a worker of its parent's run) for ``setting``."""
    PROFILE.enabled = True
    run = os.environ.get(RUN_ENV, "")
    root, _, folder = run.partition(":")
    if not folder or root == str(os.getpid()) or not os.path.isdir(folder):
        folder = tempfile.mkdtemp(prefix="rapidbleu-accelerate-")
        os.environ[RUN_ENV] = f"{os.getpid()}:{folder}"
        atexit.register(_report_run, setting, os.getpid(), Path(folder))
    else:
        _become_worker(Path(folder))
    os.register_at_fork(after_in_child=_forked)


def _forked() -> None:
    """In a ``fork`` child: its own counts from zero, in its own file when the run has one."""
    PROFILE.clear()
    _, _, folder = os.environ.get(RUN_ENV, "").partition(":")
    if folder:
        _become_worker(Path(folder))


def _become_worker(folder: Path) -> None:
    PROFILE.share(CountsFile(folder, os.getpid()))


def _report_run(setting: str, pid: int, folder: Path) -> None:
    """At the root's exit: the workers' counts added to its own, then the report."""
    if os.getpid() != pid:
        return
    PROFILE.merge(read_counts(folder))
    shutil.rmtree(folder, ignore_errors=True)
    report_at_exit(setting, pid)
