"""``rouge-chinese`` 1.0.3: ``Rouge`` and ``FilesRouge``, exact, on the Rust core.

The ``rouge`` package's code (:mod:`rapidbleu.metrics.rouge.pltrdy`) with two changes, as
``rouge-chinese`` makes them: sentences are cut by :meth:`Rouge.cut_sent` (four regular
expressions for ``。！？?``, ``......``, ``……`` and closing quotes, then lines), and ROUGE-L is
the plain LCS of all words (``exclusive`` ignored there). Text is expected segmented into
words with spaces (with jieba, for instance).

Example:
    >>> Rouge(stats=["f"]).get_scores("我 爱 北京", "我 爱 上海")[0]["rouge-1"]
    {'f': 0.6666666616666668}
"""

from __future__ import annotations

import re

from rapidbleu.metrics.rouge import pltrdy

__all__ = ["FilesRouge", "Rouge"]


class Rouge(pltrdy.Rouge):
    """``rouge-chinese``'s ``Rouge`` (arguments as :class:`rapidbleu.metrics.rouge.pltrdy.Rouge`).

    Example:
        >>> Rouge(metrics=["rouge-l"], stats=["r"]).get_scores("甲 乙。丙", "甲 丙")
        [{'rouge-l': {'r': 1.0}}]
    """

    _PACKAGE = "rouge_chinese"
    _CHINESE = True

    def cut_sent(self, para: str) -> list[str]:
        """``rouge-chinese``'s sentence splitter (the core runs the same rules).

        Args:
            para: A text.

        Returns:
            Its sentences.

        Example:
            >>> Rouge().cut_sent("你好。世界！")
            ['你好。', '世界！']
        """
        para = re.sub("([。！？\\?])([^”’])", r"\1\n\2", para)
        para = re.sub("(\\.{6})([^”’])", r"\1\n\2", para)
        para = re.sub("(\\…{2})([^”’])", r"\1\n\2", para)
        para = re.sub("([。！？\\?][”’])([^，。！？\\?])", r"\1\n\2", para)
        para = para.rstrip()
        return para.split("\n")


class FilesRouge(pltrdy.FilesRouge):
    """``rouge-chinese``'s ``FilesRouge``.

    Example:
        >>> FilesRouge().rouge.metrics
        ['rouge-1', 'rouge-2', 'rouge-l']
    """

    _ROUGE = Rouge
