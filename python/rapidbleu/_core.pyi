"""Type stubs of the Rust extension ``rapidbleu._core`` (checked by ``mypy.stubtest``).

The glue mirrors the core (``crates/rapidbleu-py/src`` next to ``crates/rapidbleu-core/src``):
``text`` (tokenizers), ``engine`` (row sums of any width), ``metric`` (the methods every
metric's options class carries: :class:`MetricOptions`, declared once), one options class per
metric (``bleu``, ``chrf``, ``ter``, ``rouge``) with what only that metric has, ``io`` (the
command's files read a chunk ahead). Options are checked once, when built. Defaults shown as
``...`` are sacreBLEU's ``BLEU()`` defaults, written once in the Rust core
(``BleuOptions::DEFAULT``: ``13a``, order 4, ``exp``).
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from os import PathLike
from types import TracebackType
from typing import Any, Protocol, TypeVar, final, overload, type_check_only

import numpy as np
import numpy.typing as npt

__all__ = [
    "TOKENIZERS",
    "BleuOptions",
    "BleuReferenceCache",
    "ChrfOptions",
    "ChunkReader",
    "CiderDOptions",
    "CiderDocumentFrequency",
    "CocoBleuOptions",
    "CocoRougeOptions",
    "JiebaDict",
    "LineCache",
    "MecabModel",
    "MeteorOptions",
    "PieceTable",
    "PltrdyOptions",
    "RougeOptions",
    "TerOptions",
    "TextChunk",
    "TokenizedLines",
    "__version__",
    "ar_sums",
    "bootstrap_sums",
    "count_tokenized",
    "fast_strings",
    "porter_stem",
    "split_arrow_items",
    "split_items",
    "tokenize",
]

__version__: str
TOKENIZERS: list[str]

# -- text (crates/rapidbleu-py/src/text.rs) ----------------------------------------------------

def count_tokenized(hypotheses: Sequence[object]) -> int:
    """How many items are a ``str`` ending in ``" ."`` (sacreBLEU's tokenized-input test)."""

def fast_strings() -> bool:
    """Whether the pool reads ``str`` objects' own data (crates/rapidbleu-py/src/pystr.rs)."""

def tokenize(name: str, line: str) -> str:
    """Exactly the output of sacreBLEU's tokenizer ``name`` on ``line``."""

def split_items(items: object) -> tuple[list[Any], list[Any]]:
    """Candidates and per-item reference lists of items (mappings or pairs)."""

def split_arrow_items(items: object) -> tuple[TokenizedLines, list[TokenizedLines]] | None:
    """Candidates and reference streams of Arrow items (src/arrow_items.rs); None if not Arrow."""

# -- engine: rows of any width (src/engine/rows.rs) --------------------------------------------

def bootstrap_sums(
    rows: npt.NDArray[np.int64], idxs: npt.NDArray[np.int64], num_threads: int = 0
) -> npt.NDArray[np.int64]:
    """``rows[idxs].sum(1)``, exact (int64)."""

def ar_sums(
    baseline: npt.NDArray[np.int64],
    system: npt.NDArray[np.int64],
    mask: npt.NDArray[np.bool_],
    num_threads: int = 0,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(mask @ baseline + ~mask @ system, ~mask @ baseline + mask @ system)``."""

# -- metric: the methods every options class carries (src/metric/methods.rs) ----------------------

_T = TypeVar("_T")
_S = TypeVar("_S", covariant=True)
_U = TypeVar("_U", covariant=True)
_Rows = npt.NDArray[np.int64]
_RougeTotals = tuple[int, npt.NDArray[np.float64] | None]

@type_check_only
class MetricOptions(Protocol[_T, _S, _U]):
    """What every metric's options class carries (``metric_methods!``): one declaration.

    ``_T`` is the metric's corpus totals as Python sees them: a list of ints for additive
    rows (BLEU, chrF), ``(num_edits, ref_length)`` for TER, ``(count, sums)`` for ROUGE.
    ``_S`` and ``_U`` are what :meth:`statistics` and :meth:`totals` return: ``(rows,
    num_refs)`` and ``(totals, num_refs)``, BLEU's with its count of ``" ."`` endings after.
    """

    @property
    def row_len(self) -> int:
        """Values per statistics row."""
    def statistics(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        num_threads: int = 0,
        per_segment: bool = False,
    ) -> _S:
        """Per-segment rows ``(n, row_len)``, ``num_refs`` (and BLEU's ``" ."`` count)."""
    def totals(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        num_threads: int = 0,
        per_segment: bool = False,
    ) -> _U:
        """The corpus totals (no NumPy array), ``num_refs`` (and BLEU's ``" ."`` count)."""
    def sentence_scores(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        num_threads: int = 0,
        per_segment: bool = False,
    ) -> tuple[npt.NDArray[np.float64], int]:
        """The sentence score of every hypothesis, scored in the parallel pass, and ``num_refs``."""
    def chunk_statistics(
        self, chunk: TextChunk, num_threads: int = 0
    ) -> tuple[list[npt.NDArray[np.int64]], int]:
        """Rows of every system of a chunk, counted in Rust, and ``num_refs``."""
    def chunk_totals(self, chunk: TextChunk, num_threads: int = 0) -> tuple[list[_T], int]:
        """Every system's corpus totals of a chunk, and ``num_refs``."""
    def accumulate(self, rows: npt.NDArray[np.int64], totals: _T | None = None) -> _T:
        """``totals`` (``None``: none yet) with ``rows`` added in order."""
    def score_rows(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The score of every statistics row on its own."""
    def score_rows_f32(self, rows_f32: npt.NDArray[np.float32]) -> Any:
        """Scores of float32 rows as sacreBLEU's significance tests compute them (NumPy 2)."""
    def pairwise_matrices(
        self, groups: list[tuple[Sequence[str], Sequence[str]]], num_threads: int = 0
    ) -> list[npt.NDArray[np.float64]]:
        """One ``N x M`` sentence-score matrix per ``(hypotheses, references)`` group."""
    def bootstrap_sums(
        self, rows: npt.NDArray[np.int64], idxs: npt.NDArray[np.int64], num_threads: int = 0
    ) -> npt.NDArray[np.int64]:
        """``rows[idxs].sum(1)``, exact (int64), vectorised for the metric's row widths."""
    def ar_sums(
        self,
        baseline: npt.NDArray[np.int64],
        system: npt.NDArray[np.int64],
        mask: npt.NDArray[np.bool_],
        num_threads: int = 0,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``(mask @ baseline + ~mask @ system, ~mask @ baseline + mask @ system)``."""
    def bootstrap_scores(
        self, rows: npt.NDArray[np.int64], idxs: npt.NDArray[np.int64], num_threads: int = 0
    ) -> npt.NDArray[np.float64]:
        """The corpus score of each resample (row ``k`` of ``idxs``), rows added in order."""

# -- io: the command's files (src/io/) ----------------------------------------------------------

@final
class TextChunk:
    """Aligned lines of every system and reference stream, held in Rust."""

    @staticmethod
    def from_lists(
        systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]], first_line: int = 1
    ) -> TextChunk:
        """A chunk of lines given as lists of ``str``."""
    def __len__(self) -> int: ...
    @property
    def num_systems(self) -> int:
        """Number of systems."""
    @property
    def num_references(self) -> int:
        """Number of reference streams."""
    @property
    def first_line(self) -> int:
        """The 1-based line number of the chunk's first segment."""
    @property
    def input_bytes(self) -> int:
        """Input bytes read when the chunk was read (the progress bar's position)."""
    def hypotheses(self, system: int) -> list[str]:
        """System ``system``'s lines."""
    def references(self) -> list[list[str]]:
        """The reference streams."""
    def tokenized_periods(self, system: int) -> int:
        """How many of system ``system``'s lines end in ``" ."``."""

@final
class ChunkReader:
    """Reference and system files read together, a chunk ahead on a background thread."""

    def __new__(
        cls,
        references: Sequence[str | PathLike[str]],
        systems: Sequence[str | PathLike[str]] | None,
        stdin: object | None = None,
        *,
        num_refs: int = 1,
        chunk_lines: int = 20000,
        prefetch: bool = True,
        num_threads: int = 0,
    ) -> ChunkReader: ...
    def __iter__(self) -> ChunkReader: ...
    def __next__(self) -> TextChunk: ...
    def close(self) -> None:
        """Closes every file."""
    def __enter__(self) -> ChunkReader: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool: ...

# -- BLEU (src/bleu/) --------------------------------------------------------------------------

@final
class BleuOptions(MetricOptions[list[int], tuple[_Rows, int, int], tuple[list[int], int, int]]):
    """BLEU's options, checked once (frozen; equal and hashable by value; picklable).

    ``lowercase`` lowercases ASCII in Rust and non-ASCII text with Python's ``str.lower()``
    while it is read. ``smooth_value`` reads back with sacreBLEU's default applied (0.1 for
    ``floor``, 1.0 for ``add-k``). ``neumaier``: add the log precisions as CPython 3.12+'s
    ``sum()`` does.
    """

    def __new__(
        cls,
        *,
        tokenizer: str = ...,
        lowercase: bool = False,
        max_order: int = ...,
        smooth_method: str = ...,
        smooth_value: float | None = None,
        effective_order: bool = False,
        neumaier: bool = False,
    ) -> BleuOptions: ...
    @property
    def tokenizer(self) -> str:
        """The Rust tokenizer's name."""
    @property
    def lowercase(self) -> bool:
        """Whether text is lowercased."""
    @property
    def max_order(self) -> int:
        """The highest n-gram order N."""
    @property
    def smooth_method(self) -> str:
        """The smoothing method."""
    @property
    def smooth_value(self) -> float | None:
        """The smoothing value, defaults applied (``None`` for ``none`` and ``exp``)."""
    @property
    def effective_order(self) -> bool:
        """Whether the geometric mean stops at the last order with hypothesis n-grams."""
    @property
    def neumaier(self) -> bool:
        """Whether ``sum()`` is compensated (CPython >= 3.12)."""
    @property
    def row_len(self) -> int:
        """Values per statistics row: ``2 + 2 * max_order``."""
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def score_rows_f32(self, rows_f32: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Scores of float32 statistics rows with NumPy 2's float32 precisions."""
    def compute(
        self, correct: Sequence[int], total: Sequence[int], sys_len: int, ref_len: int
    ) -> tuple[float, list[float], float, int]:
        """``BLEU.compute_bleu`` -> ``(score, precisions, bp, addk_orders)``."""
    def self_statistics(self, samples: Sequence[str]) -> npt.NDArray[np.int64]:
        """Statistics of every sample against all the others (self-BLEU)."""
    def aggregate_statistics(
        self, groups: list[tuple[Sequence[str], Sequence[str]]], num_threads: int = 0
    ) -> list[npt.NDArray[np.int64]]:
        """Linear-time MBR statistics (scaled expected counts) per group."""
    @staticmethod
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
    @staticmethod
    def nltk_sentence_scores(
        stats: npt.NDArray[np.int64],
        weights: Sequence[Sequence[float]],
        is_default: Sequence[bool],
        method: int,
        epsilon: float,
        k: float,
        auto_reweigh: bool,
        num_threads: int = 0,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint64]]:
        """NLTK's sentence BLEU (method0..method4) of every row, and the rows left to Python.

        One column per weight vector; the rows left to NLTK's Python code are those where a
        value is not finite somewhere (their scores are NaN here).
        """

@final
class BleuReferenceCache:
    """References tokenized once."""

    def __new__(
        cls, refs: Sequence[Sequence[str | None]], options: BleuOptions, num_threads: int = 0
    ) -> BleuReferenceCache: ...
    @property
    def num_refs(self) -> int:
        """SacreBLEU's ``num_refs`` (-1: variable)."""
    def __len__(self) -> int: ...
    def statistics(
        self, hyps: Sequence[str], num_threads: int = 0
    ) -> tuple[npt.NDArray[np.int64], int]:
        """Statistics of ``hyps`` against the cached references, and the ``" ."`` count."""
    def totals(self, hyps: Sequence[str], num_threads: int = 0) -> tuple[list[int], int]:
        """The rows of :meth:`statistics` summed (no row array), and the ``" ."`` count."""

# -- TER (crates/rapidbleu-py/src/ter/) -----------------------------------------------------------

@final
class TerOptions(
    MetricOptions[tuple[int, float], tuple[_Rows, int], tuple[tuple[int, float], int]]
):
    """TER's options and its Tercom tokenizer (frozen; equal and hashable by value; picklable).

    Unless ``case_sensitive``, text is lowercased: ASCII in Rust, non-ASCII text with Python's
    ``str.lower()`` while it is read.
    """

    def __new__(
        cls,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> TerOptions: ...
    @property
    def normalized(self) -> bool:
        """Tercom's normalisation."""
    @property
    def no_punct(self) -> bool:
        """Punctuation removal."""
    @property
    def asian_support(self) -> bool:
        """The Asian rules (with ``normalized`` and/or ``no_punct``)."""
    @property
    def case_sensitive(self) -> bool:
        """No lowercasing."""
    @property
    def row_len(self) -> int:
        """Values per statistics row: ``[num_edits, ref_len_sum, num_refs]``."""
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def tokenize(self, line: str) -> str:
        """The Tercom tokenizer's output for ``line`` (sacreBLEU's ``TercomTokenizer``)."""
    def bootstrap_sums_f32(
        self, rows: npt.NDArray[np.int64], idxs: npt.NDArray[np.int64], num_threads: int = 0
    ) -> npt.NDArray[np.float32]:
        """``np.array(stats, 'float32')[idxs[k]].sum(0)`` per resample, as NumPy adds."""

# -- ROUGE (crates/rapidbleu-py/src/rouge): rouge-score 0.1.2, exact

@final
class RougeOptions(MetricOptions[_RougeTotals, tuple[_Rows, int], tuple[_RougeTotals, int]]):
    """rouge-score's ``RougeScorer(rouge_types, use_stemmer)`` options (frozen; picklable)."""

    def __new__(cls, rouge_types: Sequence[str], use_stemmer: bool = False) -> RougeOptions: ...
    @property
    def rouge_types(self) -> list[str]:
        """The rouge types, as given (a repeated one once)."""
    @property
    def use_stemmer(self) -> bool:
        """Porter stemming of tokens longer than three letters."""
    @property
    def row_len(self) -> int:
        """Values per statistics row: ``[hits, prediction_count, target_count]`` per type."""
    @property
    def needs_sentences(self) -> bool:
        """Whether a rouge type needs sentences (``rougeLsum``)."""
    def __getnewargs__(self) -> tuple[list[str], bool]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def item_statistics(
        self,
        predictions: Sequence[str],
        targets: Sequence[Sequence[str]],
        num_threads: int = 0,
        prediction_sentences: Sequence[Sequence[str]] | None = None,
        target_sentences: Sequence[Sequence[Sequence[str]]] | None = None,
    ) -> npt.NDArray[np.int64]:
        """Rows of predictions against per-item targets, sentences given (``split_summaries``)."""
    def score_pair(
        self, target: object, prediction: object, score_class: type[tuple[Any, ...]]
    ) -> dict[str, Any] | None:
        """``RougeScorer.score(target, prediction)`` in one call (``None``: not two str)."""
    def score_dicts(
        self, rows: npt.NDArray[np.int64], score_class: type[tuple[Any, ...]]
    ) -> list[dict[str, Any]]:
        """Each statistics row's ``RougeScorer.score`` dict, as :meth:`score_pair` makes it."""
    def unicode_statistics(
        self, predictions: Sequence[str], targets: Sequence[Sequence[str]], num_threads: int = 0
    ) -> npt.NDArray[np.int64]:
        """:meth:`item_statistics` of text read by rapidbleu's Unicode tokenizer."""
    @staticmethod
    def unicode_tokenize(text: str) -> list[str]:
        """The tokens of rapidbleu's Unicode tokenizer (before stemming)."""
    def xlsum_statistics(
        self,
        predictions: Sequence[str],
        targets: Sequence[str],
        porter: bool,
        num_threads: int = 0,
        jieba: JiebaDict | None = None,
    ) -> tuple[npt.NDArray[np.int64], list[int]]:
        """XL-Sum's rows of the items the core reads, and the indices of the others."""
    def token_statistics(
        self,
        predictions: Sequence[tuple[Sequence[Any], Sequence[Sequence[Any]] | None]],
        targets: Sequence[Sequence[tuple[Sequence[Any], Sequence[Sequence[Any]] | None]]],
        num_threads: int = 0,
    ) -> npt.NDArray[np.int64]:
        """:meth:`item_statistics` of tokenized texts ``(tokens, sentences or None)``."""
    @staticmethod
    def tokenize(text: str, use_stemmer: bool = False) -> list[str]:
        """rouge-score's ``tokenize.tokenize(text, stemmer)``."""
    @staticmethod
    def resample_means(
        matrix: npt.NDArray[np.float64],
        key: npt.NDArray[np.uint32],
        pos: int,
        n_samples: int,
        num_threads: int = 0,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint32], int]:
        """Bootstrap means with NumPy's legacy MT19937 draws, and the state after them."""

@final
class JiebaDict:
    """jieba 0.42.1's dictionary and HMM, copied from the Python package (frozen)."""

    def __new__(
        cls,
        freq: Mapping[str, float],
        log_total: float,
        start_p: Mapping[str, float],
        trans_p: Mapping[str, Mapping[str, float]],
        emit_p: Mapping[str, Mapping[str, float]],
        force_split: Iterable[str],
    ) -> JiebaDict: ...
    def cut(self, text: str) -> list[str]:
        """``list(jieba.cut(text))``."""

@final
class PltrdyOptions(MetricOptions[_RougeTotals, tuple[_Rows, int], tuple[_RougeTotals, int]]):
    """``Rouge(metrics, exclusive=...)`` of the ``rouge`` package, or ``rouge-chinese``'s."""

    def __new__(
        cls, metrics: Sequence[str] | None = None, exclusive: bool = True, chinese: bool = False
    ) -> PltrdyOptions: ...
    @property
    def metrics(self) -> list[str]: ...
    @property
    def exclusive(self) -> bool: ...
    @property
    def chinese(self) -> bool: ...
    @property
    def row_len(self) -> int: ...
    def __getnewargs__(self) -> tuple[list[str], bool, bool]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def item_rows(self, hyps: Sequence[str], refs: Sequence[str], num_threads: int = 0) -> _Rows:
        """Rows: ``[hyp, ref, overlap]`` per metric, then hyp/ref words, empty flags, depth."""
    def item_scores(self, rows: _Rows) -> npt.NDArray[np.float64]:
        """Every item's ``(f, p, r)`` per metric."""
    def average(
        self, rows: _Rows, repeats: Sequence[int] | None = None
    ) -> tuple[npt.NDArray[np.float64], tuple[float, float]]:
        """The package's ``avg=True`` means and mean lengths."""
    def first_error(self, rows: _Rows) -> tuple[int, str] | None:
        """The first item the package raises ``ValueError`` on, and its message."""

# -- METEOR (crates/rapidbleu-py/src/meteor): NLTK 3.10.4's meteor_score, exact

@final
class MeteorOptions(MetricOptions[list[float], tuple[_Rows, int], tuple[list[float], int]]):
    """NLTK 3.10.4's ``meteor_score`` options (frozen; picklable); ``wordnet``: WordNet's folder."""

    def __new__(
        cls,
        *,
        alpha: float | None = None,
        beta: float | None = None,
        gamma: float | None = None,
        lowercase: bool = True,
        stem: bool = True,
        wordnet: str | None = None,
    ) -> MeteorOptions: ...
    @property
    def alpha(self) -> float: ...
    @property
    def beta(self) -> float: ...
    @property
    def gamma(self) -> float: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def stem(self) -> bool: ...
    @property
    def wordnet(self) -> str | None: ...
    @property
    def row_len(self) -> int: ...
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @staticmethod
    def find_wordnet(roots: Sequence[str], defaults: bool = True) -> str:
        """The first of ``roots`` (then, with ``defaults``, the core's places) holding WordNet."""
    def tokens_statistics(
        self,
        hyps: Sequence[Sequence[str]],
        refs: Sequence[Sequence[Sequence[str]]],
        num_threads: int = 0,
    ) -> npt.NDArray[np.int64]:
        """Rows ``[matches, chunks, hyp_len, ref_len]`` of token lists (NLTK's input)."""

# -- caption: pycocoevalcap 1.2's metrics (src/caption/) -------------------------------------------

@final
class CocoBleuOptions(MetricOptions[list[int], tuple[_Rows, int], tuple[list[int], int]]):
    """COCO BLEU-1..n (pycocoevalcap's ``Bleu(n)``; frozen, picklable)."""

    def __new__(cls, n: int | None = None) -> CocoBleuOptions: ...
    @property
    def n(self) -> int: ...
    @property
    def row_len(self) -> int: ...
    def compute_score(
        self, gts: Mapping[Any, Any], res: Mapping[Any, Any], num_threads: int = 0
    ) -> tuple[list[int], list[list[float]]]:
        """``Bleu(n).compute_score``'s summed statistics and, per order, every image's BLEU."""
    def image_scores(self, rows: _Rows) -> npt.NDArray[np.float64]:
        """BLEU-1..n of every row, ``(images, n)``."""
    def scores(self, totals: Sequence[int]) -> list[float]:
        """BLEU-1..n of summed rows."""
    def __getnewargs__(self) -> tuple[int]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class CocoRougeOptions(MetricOptions[list[float], tuple[_Rows, int], tuple[list[float], int]]):
    """COCO ROUGE-L (pycocoevalcap's ``Rouge()``; frozen, picklable)."""

    def __new__(cls, beta: float | None = None) -> CocoRougeOptions: ...
    @property
    def beta(self) -> float: ...
    @property
    def row_len(self) -> int: ...
    def compute_score(
        self, gts: Mapping[Any, Any], res: Mapping[Any, Any], num_threads: int = 0
    ) -> npt.NDArray[np.float64]:
        """``Rouge().compute_score``'s every image's ROUGE-L."""
    def image_scores(self, rows: _Rows) -> npt.NDArray[np.float64]:
        """ROUGE-L of every row ``[lcs_p, hyp_len, lcs_r, ref_len]``."""
    def __getnewargs__(self) -> tuple[float]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class CiderDOptions:
    """CIDEr-D's ``n`` and ``sigma`` (pycocoevalcap's ``Cider(n, sigma)``; frozen, picklable)."""

    def __new__(cls, n: int | None = None, sigma: float | None = None) -> CiderDOptions: ...
    @property
    def n(self) -> int: ...
    @property
    def sigma(self) -> float: ...
    def compute(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        logs: npt.NDArray[np.float64],
        num_threads: int = 0,
    ) -> tuple[float, npt.NDArray[np.float64]]:
        """``Cider.compute_score``: the mean and every image's score."""
    def compute_score(
        self,
        gts: Mapping[Any, Any],
        res: Mapping[Any, Any],
        logs: npt.NDArray[np.float64],
        num_threads: int = 0,
    ) -> tuple[float, npt.NDArray[np.float64]]:
        """``Cider.compute_score`` of pycocoevalcap's dictionaries, read and checked."""
    def __getnewargs__(self) -> tuple[int, float]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class CiderDocumentFrequency:
    """CIDEr-D's document frequencies of a reference corpus, built once."""

    @staticmethod
    def from_texts(refs: Sequence[Sequence[str]]) -> CiderDocumentFrequency: ...
    @staticmethod
    def from_ids(refs: Sequence[Sequence[Sequence[int]]]) -> CiderDocumentFrequency: ...
    @property
    def images(self) -> int: ...
    @property
    def is_ids(self) -> bool: ...
    @property
    def max_count(self) -> int: ...
    def of_words(self, words: Sequence[str]) -> int: ...
    def scores(
        self,
        options: CiderDOptions,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        logs: npt.NDArray[np.float64],
        ref_len: str,
        num_threads: int = 0,
    ) -> npt.NDArray[np.float64]:
        """CIDEr-D of text captions under these frequencies."""
    def id_scores(
        self,
        options: CiderDOptions,
        hyps: Sequence[Sequence[int]],
        refs: Sequence[Sequence[Sequence[int]]],
        logs: npt.NDArray[np.float64],
        ref_len: str,
        num_threads: int = 0,
    ) -> npt.NDArray[np.float64]:
        """CIDEr-D of token-ID captions under these frequencies."""
    def __len__(self) -> int: ...

def porter_stem(words: Sequence[str]) -> list[str]:
    """NLTK's ``PorterStemmer().stem`` of lowercase ``[a-z0-9]`` words."""

# -- tokenizers run by other libraries (crates/rapidbleu-py/src/mecab.rs, spm.rs)

@final
class TokenizedLines(Sequence[str | None]):
    """Lines held by the core (the line cache's, Arrow text); a read-only sequence."""

    @staticmethod
    def from_arrow(obj: object) -> TokenizedLines: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> str | None: ...
    @overload
    def __getitem__(self, key: slice, /) -> Sequence[str | None]: ...

@final
class LineCache:
    """Tokenized lines, bounded to ``size`` entries (see :mod:`rapidbleu.tokenizers._cache`)."""

    def __new__(cls, size: int) -> LineCache: ...
    def __len__(self) -> int: ...
    def run(
        self,
        lines: Sequence[str | None],
        tokenize: MecabModel | Callable[[list[str]], Sequence[str]],
        *,
        num_threads: int = 0,
        lowercase: bool = False,
        rstrip: bool = False,
        allow_none: bool = False,
    ) -> TokenizedLines: ...

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

# -- chrF (src/chrf/) --------------------------------------------------------------------------

@final
class ChrfOptions(MetricOptions[list[int], tuple[_Rows, int], tuple[list[int], int]]):
    """chrF's options, checked once (frozen; equal and hashable by value; picklable).

    ``beta`` is kept as given, an int or a float; ``factor`` is Python's
    ``beta ** 2``. ``lowercase`` lowercases ASCII in Rust and non-ASCII text with Python's
    ``str.lower()`` while it is read.
    """

    def __new__(
        cls,
        *,
        beta: int | float,
        char_order: int = 6,
        word_order: int = 0,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> ChrfOptions: ...
    @property
    def char_order(self) -> int:
        """Character n-gram orders ``1..=char_order``."""
    @property
    def word_order(self) -> int:
        """Word n-gram orders ``1..=word_order`` (2: chrF++)."""
    @property
    def beta(self) -> int | float:
        """``beta``, as given (an int or a float)."""
    @property
    def factor(self) -> float:
        """``beta ** 2``, as Python computes it."""
    @property
    def lowercase(self) -> bool:
        """Whether text is lowercased."""
    @property
    def whitespace(self) -> bool:
        """Whether whitespace characters are kept in character n-grams."""
    @property
    def eps_smoothing(self) -> bool:
        """Whether scores are chrF++.py's mean of per-order F scores."""
    @property
    def row_len(self) -> int:
        """Values per statistics row: ``3 * (char_order + word_order)``."""
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def score_rows_f32(
        self, rows_f32: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float64], bool]:
        """Scores of float32 rows and whether every one is a ``np.float32`` (NumPy 2)."""
