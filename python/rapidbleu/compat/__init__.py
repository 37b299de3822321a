"""Functions with the names and defaults of other BLEU packages.

:mod:`rapidbleu.compat.sacrebleu` holds sacreBLEU's functions (``corpus_bleu``,
``sentence_bleu``, ``raw_corpus_bleu``), also importable from :mod:`rapidbleu` itself.
"""
