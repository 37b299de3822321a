"""Version numbers: rapidbleu's own and the sacreBLEU release whose scores it reproduces."""

from __future__ import annotations

from rapidbleu._core import __version__

__all__ = ["SACREBLEU_VERSION", "SIGNATURE_VERSION", "__version__"]

#: The sacreBLEU release whose scores, statistics and signatures rapidbleu reproduces.
SACREBLEU_VERSION = "2.6.0"

#: The ``version`` field of rapidbleu's signatures: sacreBLEU's version, then a PEP 440 local
#: label naming the program that computed the score, so that a reported signature says both what
#: it is comparable to and who computed it (``2.6.0+rapidbleu.0.1.0``). Everything else in the
#: signature equals sacreBLEU's.
SIGNATURE_VERSION = f"{SACREBLEU_VERSION}+rapidbleu.{__version__}"
