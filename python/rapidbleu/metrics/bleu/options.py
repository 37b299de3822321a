"""BLEU's options on the command line: sacreBLEU's spellings and defaults, and rapidbleu's own.

Only BLEU's options are not prefixed with the metric's name (``-tok``, ``-lc``, ``-s``, ...),
as in sacreBLEU; ``--max-ngram-order`` and ``--spm-model`` are rapidbleu's.

Example:
    >>> [o.kwarg for o in CLI_OPTIONS][:3]
    ['tokenize', 'lowercase', 'smooth_method']
"""

from __future__ import annotations

from rapidbleu.metrics.bleu.score import MAX_NGRAM_ORDER, SMOOTH_DEFAULTS
from rapidbleu.metrics.options import CliOption
from rapidbleu.tokenizers.registry import SPM_TOKENIZERS, TOKENIZERS

__all__ = ["CLI_OPTIONS"]

#: :attr:`BLEU.CLI_OPTIONS <rapidbleu.metrics.bleu.BLEU.CLI_OPTIONS>`.
CLI_OPTIONS = (
    CliOption(
        ("-tok", "--tokenize"),
        "tokenize",
        default=None,
        choices=TOKENIZERS,
        metavar="TOK",
        help="tokenizer: " + ", ".join(TOKENIZERS) + " (default: from -l, else 13a)",
    ),
    CliOption(("-lc", "--lowercase"), "lowercase", bool, False, "case-insensitive"),
    CliOption(
        ("-s", "--smooth-method"),
        "smooth_method",
        default="exp",
        choices=tuple(SMOOTH_DEFAULTS),
        metavar="METHOD",
        help="exp (default), floor, add-k or none",
    ),
    CliOption(
        ("-sv", "--smooth-value"),
        "smooth_value",
        float,
        None,
        "for floor (default 0.1) and add-k (default 1)",
        metavar="V",
        minimum=0,
    ),
    CliOption(
        ("--max-ngram-order",),
        "max_ngram_order",
        int,
        MAX_NGRAM_ORDER,
        "highest n-gram order (default 4; rapidbleu's own option)",
        metavar="N",
        minimum=1,
    ),
    CliOption(("--force",), "force", bool, False, "no warning about tokenized input"),
    CliOption(
        ("--spm-model",),
        "spm_model",
        str,
        None,
        f"SentencePiece model file for -tok {'/'.join(SPM_TOKENIZERS)} (default: "
        "sacreBLEU's model cache; rapidbleu never downloads; rapidbleu's own option)",
        metavar="FILE",
    ),
)
