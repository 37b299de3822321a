"""NLTK's ``Fraction`` and ``SmoothingFunction`` (nltk 3.10.4), on rapidbleu's engine.

The methods are NLTK's code with its float operations unchanged, so results are ``==``; only
``modified_precision`` (used by methods 5 and 7) counts n-grams in Rust, and method 6 counts a
hypothesis's n-grams as ``max(0, len - n + 1)`` instead of enumerating them.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import sys
import warnings
from fractions import Fraction as _Fraction
from pathlib import Path
from typing import Any

from rapidbleu.metrics.bleu.tokens import token_statistics

__all__ = ["Fraction", "SmoothingFunction", "modified_precision"]


class Fraction(_Fraction):
    """NLTK's ``Fraction``: keeps the unreduced numerator and denominator (copied as is)."""

    _normalize: bool
    _original_numerator: Any
    _original_denominator: Any

    def __new__(
        cls, numerator: Any = 0, denominator: Any = None, _normalize: bool = False
    ) -> Fraction:
        self: Fraction
        if sys.version_info >= (3, 12):
            self = super().__new__(cls, numerator, denominator)
        else:  # Python <= 3.11 still has the keyword (typeshed does not list it)
            self = super().__new__(cls, numerator, denominator, _normalize=_normalize)  # type: ignore[call-overload]
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self) -> Any:
        """The numerator as given (NLTK sums these across segments)."""
        if not self._normalize:
            return self._original_numerator
        return super().numerator

    @property
    def denominator(self) -> Any:
        """The denominator as given."""
        if not self._normalize:
            return self._original_denominator
        return super().denominator


def _seq(x: Any) -> Any:
    return list(x) if isinstance(x, str) else x


def modified_precision(references: Any, hypothesis: Any, n: int) -> Fraction:
    """NLTK's ``modified_precision``: clipped matches over ``max(1, count)`` n-grams.

    Example:
        >>> refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
        >>> float(modified_precision(refs, "the the the the the the the".split(), n=1))
        0.2857142857142857
    """
    rows, _ = token_statistics(
        [_seq(hypothesis)], [[_seq(r) for r in references]], max_order=n, per_segment=True
    )
    return Fraction(int(rows[0, 1 + n]), max(1, int(rows[0, 1 + 2 * n])), _normalize=False)


#: NLTK's module, and the line of ``SmoothingFunction.method0``'s ``warnings.warn`` (nltk 3.10.4).
_NLTK_MODULE = "nltk.translate.bleu_score"
_NLTK_LINE = 577

#: Where the warnings were shown, when NLTK's module is not loaded (NLTK's own registry else).
_REGISTRY: dict[Any, Any] = {}


@functools.cache
def _nltk_file() -> str:
    """NLTK's ``bleu_score.py`` (found without importing NLTK), else its path in the package."""
    spec = importlib.util.find_spec("nltk")
    if spec is not None and spec.origin is not None:
        return str(Path(spec.origin).parent / "translate" / "bleu_score.py")
    return "nltk/translate/bleu_score.py"


def warn_as_nltk(message: str) -> None:
    """Issues ``message`` as NLTK's ``method0`` does: a ``UserWarning`` from its module.

    Attributed to ``nltk/translate/bleu_score.py`` (the line of NLTK's ``warnings.warn``) and
    counted in that module's registry when it is loaded, so that a program's filter on NLTK's
    module (``warnings.filterwarnings("ignore", module="nltk")``) silences it, and the default
    action shows it as often as NLTK would.

    Example:
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     warn_as_nltk("no overlap")
        >>> caught[0].filename.endswith("bleu_score.py"), caught[0].category.__name__
        (True, 'UserWarning')
    """
    module = sys.modules.get(_NLTK_MODULE)
    registry = vars(module).setdefault("__warningregistry__", {}) if module else _REGISTRY
    warnings.warn_explicit(
        message, UserWarning, _nltk_file(), _NLTK_LINE, module=_NLTK_MODULE, registry=registry
    )


class SmoothingFunction:
    """NLTK's smoothing methods of Chen and Cherry (2014), ``method0`` .. ``method7``.

    Args:
        epsilon: Method 1's count for zero precisions.
        alpha: Method 6's interpolation weight.
        k: Method 4's constant.

    Example:
        >>> SmoothingFunction().method1([Fraction(0, 4)])
        [0.025]
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: Any, *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: a zero precision becomes ``sys.float_info.min`` (and warns)."""
        p_n_new: list[Any] = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                p_n_new.append(p_i)
            else:
                _msg = (
                    f"\nThe hypothesis contains 0 counts of {i + 1}-gram overlaps.\n"
                    "Therefore the BLEU score evaluates to 0, independently of\n"
                    "how many N-gram overlaps of lower order it contains.\n"
                    "Consider using lower n-gram order or use "
                    "SmoothingFunction()"
                )
                warn_as_nltk(_msg)
                p_n_new.append(sys.float_info.min)
        return p_n_new

    def method1(self, p_n: Any, *args: Any, **kwargs: Any) -> list[Any]:
        """Adds ``epsilon`` to the numerator of zero precisions."""
        return [
            ((p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i)
            for p_i in p_n
        ]

    def method2(self, p_n: Any, *args: Any, **kwargs: Any) -> list[Any]:
        """Adds 1 to numerator and denominator of every order but unigrams (Lin and Och)."""
        return [
            (
                Fraction(p_n[i].numerator + 1, p_n[i].denominator + 1, _normalize=False)
                if i != 0
                else p_n[0]
            )
            for i in range(len(p_n))
        ]

    def method3(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """NIST geometric sequence smoothing: ``1 / (2**k * denominator)``."""
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**incvnt * p_i.denominator)
                incvnt += 1
        return p_n

    def method4(
        self,
        p_n: Any,
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        """Smaller smoothed counts for shorter translations (``k / ln(len)``)."""
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(
        self,
        p_n: Any,
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        """Averages the n-1, n and n+1 gram precisions (the last segment's 5-gram one)."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        m = {}
        p_n_plus1 = [*p_n, modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(
        self,
        p_n: Any,
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        """Interpolates with a prior from the two previous orders (Gao and He)."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        assert p_n[2], "This smoothing method requires non-zero precision for bigrams."
        for i, p_i in enumerate(p_n):
            if i in [0, 1]:
                continue
            else:
                pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
                m = p_i.numerator
                # NLTK: sum(1 for _ in ngrams(hypothesis, i + 1)).
                l = max(0, len(hypothesis) - i)  # noqa: E741 (NLTK's name)
                p_n[i] = (m + self.alpha * pi0) / (l + self.alpha)
        return p_n

    def method7(
        self,
        p_n: Any,
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        """Method 4, then method 5."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        p_n = self.method5(p_n, references, hypothesis, hyp_len)
        return p_n
