"""The environment the client programs run in: offline, and the same for both modes.

Two clients fetch data from the network when they run, which tests and benchmarks cannot:

- HELM tokenizes with NLTK's ``word_tokenize``, which needs NLTK's ``punkt_tab`` data (HELM
  downloads it at import when missing). :func:`prepare` makes an *untrained* Punkt model
  (its four parameter files empty: no abbreviations, collocations or sentence starters) under
  ``NLTK_DATA``: Punkt then splits sentences by its rules alone, which can give other tokens
  than the trained English model around abbreviations, through the same code.
- ``evaluate.load(NAME)`` fetches its loading script from the Hub: :func:`prepare` lays out
  evaluate's module cache (evaluate_cache.py) under ``HF_HOME`` and sets
  ``HF_EVALUATE_OFFLINE=1``, so that evaluate loads the cached script by name.

``RAPIDBLEU_ACCELERATE`` and ``RAPIDBLEU_ACCELERATE_REPORT`` are removed (the first would put
a plain run in the mode), and so is lm-evaluation-harness' ``DISABLE_MULTIPROC`` (its bootstrap
must run in its multiprocessing Pool).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PUNKT_FILES = ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab")


def prepare(folder: Path, timeout: float = 300) -> dict[str, str]:
    """Makes the NLTK data and evaluate cache in ``folder``; returns the environment to run in.

    Args:
        folder: An empty folder that outlives the runs.
        timeout: Seconds allowed for laying out evaluate's cache (a subprocess).
    """
    punkt = folder / "nltk_data" / "tokenizers" / "punkt_tab" / "english"
    punkt.mkdir(parents=True, exist_ok=True)
    for name in PUNKT_FILES:
        (punkt / name).touch()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("RAPIDBLEU_ACCELERATE", "RAPIDBLEU_ACCELERATE_REPORT", "DISABLE_MULTIPROC")
    }
    env.update(
        NLTK_DATA=str(folder / "nltk_data"),
        HF_HOME=str(folder / "huggingface"),
        HF_EVALUATE_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HUB_OFFLINE="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    subprocess.run(
        [sys.executable, str(HERE / "evaluate_cache.py")],
        env=env,
        check=True,
        timeout=timeout,
        capture_output=True,
    )
    return env
