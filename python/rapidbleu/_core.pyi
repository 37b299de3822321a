"""Type stubs of the Rust extension ``rapidbleu._core`` (checked by ``mypy.stubtest``)."""

from collections.abc import Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "TOKENIZERS",
    "MecabModel",
    "PieceTable",
    "ReferenceCache",
    "__version__",
    "aggregate_statistics",
    "ar_sums",
    "bootstrap_sums",
    "compute_bleu",
    "corpus_statistics",
    "nltk_sentence_scores",
    "pairwise_matrices",
    "score_rows",
    "score_rows_f32",
    "self_statistics",
    "sentence_scores",
    "split_items",
    "token_statistics",
    "tokenize",
]

__version__: str
TOKENIZERS: list[str]

def tokenize(name: str, line: str) -> str:
    """Exactly the output of sacreBLEU's tokenizer ``name`` on ``line``."""

def corpus_statistics(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    num_threads: int = 0,
    per_segment: bool = False,
) -> tuple[npt.NDArray[np.int64], int, int]:
    """Per-segment statistics, sacreBLEU's ``num_refs``, and the count of ``" ."`` endings."""

def compute_bleu(
    correct: Sequence[int],
    total: Sequence[int],
    sys_len: int,
    ref_len: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
    neumaier: bool,
) -> tuple[float, list[float], float, int]:
    """``BLEU.compute_bleu`` -> ``(score, precisions, bp, addk_orders)``."""

def score_rows(
    stats: npt.NDArray[np.int64],
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
    neumaier: bool,
) -> npt.NDArray[np.float64]:
    """Sentence BLEU of every statistics row."""

def sentence_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    num_threads: int,
    per_segment: bool,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
) -> tuple[npt.NDArray[np.float64], int]:
    """Sentence BLEU of every hypothesis, scored in the parallel pass, and ``num_refs``."""

def split_items(items: object) -> tuple[list[Any], list[Any]]:
    """Candidates and per-item reference lists of items (mappings or pairs)."""

@final
class ReferenceCache:
    """References tokenized and counted once."""

    def __new__(
        cls,
        refs: Sequence[Sequence[str | None]],
        tokenizer: str,
        lowercase: bool,
        max_order: int,
        num_threads: int = 0,
    ) -> ReferenceCache: ...
    @property
    def num_refs(self) -> int:
        """SacreBLEU's ``num_refs`` (-1: variable)."""
    def __len__(self) -> int: ...
    def statistics(
        self, hyps: Sequence[str], num_threads: int = 0
    ) -> tuple[npt.NDArray[np.int64], int]:
        """Statistics of ``hyps`` against the cached references, and the ``" ."`` count."""

def token_statistics(
    hyps: Any,
    refs: Any,
    max_order: int,
    ref_len_rule: str = "closest",
    per_segment: bool = True,
    pad_id: int | None = None,
    hyp_lengths: Sequence[int] | None = None,
    ref_lengths: Sequence[Sequence[int] | None] | None = None,
    num_threads: int = 0,
    str_chars: bool = False,
) -> tuple[npt.NDArray[np.int64], str]:
    """Statistics rows of token IDs or str tokens, and the kind (ids, tokens, empty)."""

def nltk_sentence_scores(
    stats: npt.NDArray[np.int64],
    weights: Sequence[Sequence[float]],
    is_default: Sequence[bool],
    method: int,
    epsilon: float,
    k: float,
    auto_reweigh: bool,
    num_threads: int = 0,
) -> npt.NDArray[np.float64]:
    """NLTK's sentence BLEU (method0..method4) of every row, one column per weight vector."""

# -- significance tests, pairwise matrices, self-BLEU, MBR (crates/rapidbleu-py/src/pairwise.rs)

def bootstrap_sums(
    stats: npt.NDArray[np.int64], idxs: npt.NDArray[np.int64], num_threads: int = 0
) -> npt.NDArray[np.int64]:
    """``stats[idxs].sum(1)``, exact (int64)."""

def ar_sums(
    baseline: npt.NDArray[np.int64],
    system: npt.NDArray[np.int64],
    mask: npt.NDArray[np.bool_],
    num_threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(mask @ baseline + ~mask @ system, ~mask @ baseline + mask @ system)``."""

def score_rows_f32(
    stats: npt.NDArray[np.float32],
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_order: int,
    neumaier: bool,
) -> npt.NDArray[np.float64]:
    """Scores of float32 statistics rows with NumPy 2's float32 precisions."""

def pairwise_matrices(
    groups: list[tuple[Sequence[str], Sequence[str]]],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    num_threads: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
) -> list[npt.NDArray[np.float64]]:
    """One sentence-BLEU matrix per ``(hypotheses, references)`` group."""

def self_statistics(
    samples: Sequence[str], tokenizer: str, lowercase: bool, max_order: int
) -> npt.NDArray[np.int64]:
    """Statistics of every sample against all the others."""

def aggregate_statistics(
    groups: list[tuple[Sequence[str], Sequence[str]]],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    num_threads: int = 0,
) -> list[npt.NDArray[np.int64]]:
    """Linear-time MBR statistics (scaled expected counts) per group."""

@final
class MecabModel:
    """A MeCab model (dictionary) of a MeCab C library, shared by the tokenizing threads."""

    def __new__(cls, library: str, args: Sequence[str]) -> MecabModel:
        """Loads ``library`` and opens a model with MeCab's argument vector ``args``."""
    @property
    def version(self) -> str:
        """MeCab's version (``mecab_version()``)."""
    def dictionaries(self) -> list[tuple[str, str, int, int]]:
        """The loaded dictionaries, system first: ``(filename, charset, size, kind)``."""
    def tokenize(self, lines: Sequence[str], num_threads: int = 0) -> list[str]:
        """``parse(line.strip()).strip()`` of every line, on ``num_threads`` threads."""

@final
class PieceTable:
    """A SentencePiece model's vocabulary, piece by id, for joining ids into lines."""

    def __new__(cls, pieces: Sequence[str], unk_id: int) -> PieceTable:
        """``pieces[id]`` for every id, and the model's unknown id."""
    def __len__(self) -> int: ...
    def join(self, ids: list[list[int]]) -> list[str | None]:
        """``" ".join(pieces)`` per line; ``None`` where a line has the unknown id."""
