"""``BLEU.tokenizer = obj``: which of the core's tokenizers an assigned object is, if any.

sacreBLEU's ``BLEU`` calls ``self.tokenizer(line)`` on every segment (``_preprocess_segment``),
so a program may assign another tokenizer object after construction and the next call uses it
(the signature's ``tok:`` field, made in ``__init__``, stays). rapidbleu tokenizes in the core:
an assigned object is honoured when it is one of the tokenizers the core runs, exactly (its
class is rapidbleu's, or sacreBLEU's class of the same name at sacreBLEU's module path, or
the accelerator's form of either, not a subclass that may override ``__call__``). Any other
object makes the metric refuse its next call (``InvalidOptionError``), and in
``python -m rapidbleu.accelerate`` that call goes to sacreBLEU's own object, given the same
tokenizer.

Example:
    >>> from rapidbleu.tokenizers.tokenizer_intl import TokenizerV14International
    >>> core_name(TokenizerV14International()), core_name(str.split)
    ('intl', None)
"""

from __future__ import annotations

from typing import Any

from rapidbleu.tokenizers.registry import RUST_TOKENIZERS, tokenizer_class

__all__ = ["core_name"]

_PRIVATE = "_rapidbleu_real."  # the accelerator's private copies (rapidbleu.accelerate.real)


def core_name(tokenizer: Any) -> str | None:
    """The core's name of ``tokenizer`` when it is exactly that tokenizer, else ``None``."""
    cls = type(tokenizer)
    module = cls.__module__.removeprefix(_PRIVATE)
    for name in RUST_TOKENIZERS:
        ours = tokenizer_class(name)
        if cls is ours:
            return name
        same_name = cls.__qualname__ == ours.__qualname__
        at_path = module == "sacrebleu" + ours.__module__[len("rapidbleu") :]
        # The real class (a subclass of nothing of rapidbleu's), or the accelerator's form of
        # rapidbleu's class (a subclass that adds only the fallbacks), under sacreBLEU's names.
        if same_name and at_path and (cls.__bases__ == (ours,) or not issubclass(cls, ours)):
            return name
    return None
