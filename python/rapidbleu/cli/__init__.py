"""The ``rapidbleu`` command (see :mod:`rapidbleu.cli.main`)."""

from rapidbleu.cli.main import console_main, main

__all__ = ["console_main", "main"]
