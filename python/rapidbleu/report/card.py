"""The reporting card: what evaluation guides ask a paper to state, in Markdown, from the run.

Guides on reporting MT scores (sacreBLEU's own paper, "A Call for Clarity in Reporting BLEU
Scores", and the model-card checklists after it) ask for the metric, the tool and its version,
the signature, the tokenizer, the case, the smoothing, the references (how many, where from),
the test set and any preprocessing. :func:`render_card` fills each in from the real run: the
scores and signatures of a :class:`~rapidbleu.report.model.Results` (every metric computed,
read through the signature's public ``info``, so a new metric's fields appear without code
here) and a :class:`CardContext` (files, segments, language pair, notes, the command line).
``rapidbleu ... -f card`` prints it; the HTML report shows the same text.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> bleu = BLEU()
    >>> score = bleu.corpus_score(["a b c d"], [["a b c d"]])
    >>> res = Results.of_scores({"hyp.txt": {"BLEU": score}}, {"BLEU": bleu.get_signature()})
    >>> card = render_card(res, CardContext(1, ["ref.txt"]))
    >>> print(card.splitlines()[4])
    | hyp.txt | 100.0 |
    >>> "- Tokenizer: 13a (sacreBLEU's default, mteval-v13a)" in card
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rapidbleu.report.model import Cell, Results
from rapidbleu.version import SACREBLEU_VERSION, __version__

__all__ = ["SIGNIFICANCE_LEVEL", "CardContext", "render_card", "signature_fields"]

#: p-values below this are marked significant (sacreBLEU's tables use the same 0.05).
SIGNIFICANCE_LEVEL = 0.05

# What each signature key means, for readers who do not know sacreBLEU's abbreviations.
# Keys not listed here (a new metric's) are shown by their own name.
_LABELS = {
    "nrefs": "References per segment",
    "case": "Case",
    "eff": "Effective order",
    "tok": "Tokenizer",
    "smooth": "Smoothing",
    "nc": "Character n-gram order",
    "nw": "Word n-gram order",
    "space": "Whitespace in character n-grams",
    "norm": "Normalization",
    "punct": "Punctuation",
    "asian": "Asian-script support",
    "test": "Test set",
    "lang": "Language pair",
    "origlang": "Original language",
    "subset": "Subset",
    "bs": "Bootstrap resamples",
    "ar": "Approximate-randomization trials",
    "seed": "Random seed",
    "version": "Version",
}
_VALUES = {
    ("case", "mixed"): "mixed (case-sensitive)",
    ("case", "lc"): "lowercased (case-insensitive)",
    ("tok", "13a"): "13a (sacreBLEU's default, mteval-v13a)",
    ("tok", "intl"): "intl (mteval-v14 international)",
    ("tok", "none"): "none (input scored as already tokenized)",
    ("tok", "char"): "char (every character a word)",
    ("tok", "zh"): "zh (Chinese characters split, the rest 13a)",
    ("smooth", "exp"): "exp (sacreBLEU's default)",
    ("smooth", "none"): "none",
    ("eff", "no"): "no",
    ("eff", "yes"): "yes (orders without a match are skipped)",
}
_TESTS = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}
#: What each test draws, as sacreBLEU's legend names them.
_DRAWS = {"bs": "resamples", "ar": "trials"}
#: What "μ ± x" in a cell means.
_MU = "μ ± x is the bootstrap mean and the half-width of its 95% confidence interval"


@dataclass
class CardContext:
    """What the card says beyond scores and signatures.

    Attributes:
        n_segments: Segments in the test set.
        reference_names: Where the references came from (one per stream).
        source_name: The source file, when given.
        langpair: ``SRC-TRG``, when given.
        notes: The authors' notes on preprocessing (``--notes``).
        command: The command line that produced the scores.
        baseline: The baseline's name (paired tests).
    """

    n_segments: int
    reference_names: list[str] = field(default_factory=list)
    source_name: str | None = None
    langpair: str | None = None
    notes: str | None = None
    command: str | None = None
    baseline: str | None = None


def signature_fields(info: dict[str, object]) -> list[tuple[str, str]]:
    """A signature's fields as ``(label, value)`` lines, version last, ``None`` fields left out.

    Example:
        >>> for line in signature_fields({"nrefs": 1, "case": "lc", "new": "x", "version": "2"}):
        ...     print(line)
        ('References per segment', '1')
        ('Case', 'lowercased (case-insensitive)')
        ('new', 'x')
        ('Version', '2')
    """
    out = []
    for key in [k for k in info if k != "version"] + ["version"]:
        value = info.get(key)
        if value is None:
            continue
        if isinstance(value, bool):
            value = "yes" if value else "no"
        text = str(value)
        out.append((_LABELS.get(key, key), _VALUES.get((key, text), text)))
    return out


def _cell(cell: Cell, width: int) -> str:
    text = f"{cell.value:.{width}f}"
    extra = []
    if cell.mean is not None and cell.ci is not None:
        extra.append(f"μ {cell.mean:.{width}f} ± {cell.ci:.{width}f}")
    if cell.p_value is not None:
        mark = "*" if cell.p_value < SIGNIFICANCE_LEVEL else ""
        extra.append(f"p = {cell.p_value:.4f}{mark}")
    return f"{text} ({', '.join(extra)})" if extra else text


def _md(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def render_card(results: Results, context: CardContext, width: int = 1) -> str:
    """The reporting card of a run, in Markdown.

    Args:
        results: Every system's scores (with intervals and p-values when computed).
        context: Files, segments, language pair, notes and the command line.
        width: Decimals of the scores.

    Returns:
        The card (Markdown, ending without a newline).
    """
    lines = [f"## Evaluation card: {', '.join(results.metrics)}", ""]
    header = ["System", *results.metrics]
    lines.append("| " + " | ".join(_md(h) for h in header) + " |")
    lines.append("|---|" + "---:|" * len(results.metrics))
    for i, system in enumerate(results.systems):
        cells = [_cell(results.cells[m][i], width) for m in results.metrics]
        lines.append("| " + " | ".join(_md(c) for c in [system, *cells]) + " |")
    lines.append("")
    # The caption names only what the table shows: approximate randomization gives p-values
    # and no interval, and its draws are trials, not samples.
    has_mu = any(c.mean is not None for cs in results.cells.values() for c in cs)
    if results.test is not None:
        draws = f"{results.n_samples} {_DRAWS.get(results.test, 'draws')}"
        mu = f"{_MU}; " if has_mu else ""
        lines.append(
            f"Baseline: the first system. {mu}p-values from "
            f"{_TESTS.get(results.test, results.test)} ({draws}); "
            f"\\* marks p < {SIGNIFICANCE_LEVEL}."
        )
    elif has_mu:
        lines.append(f"{_MU} (bootstrap resampling).")
    else:
        lines.append("Corpus-level scores; no significance test was run.")
    lines += [
        "",
        f"- **Tool:** rapidbleu {__version__}, which reproduces sacreBLEU {SACREBLEU_VERSION} "
        f"exactly; its signatures say `version:{SACREBLEU_VERSION}+rapidbleu.{__version__}`.",
        f"- **Test set:** {context.n_segments:,} segments"
        + (f", language pair {context.langpair}" if context.langpair else "")
        + ".",
    ]
    if context.reference_names:
        names = ", ".join(f"`{n}`" for n in context.reference_names)
        plural = "s" if len(context.reference_names) != 1 else ""
        lines.append(f"- **References:** {len(context.reference_names)} stream{plural}: {names}.")
    if context.source_name:
        lines.append(f"- **Source:** `{context.source_name}`.")
    for metric in results.metrics:
        sig = results.signatures[metric]
        lines += ["", f"### {metric}", "", f"- Signature: `{sig.format()}`"]
        lines += [f"- {label}: {value}" for label, value in signature_fields(sig.info)]
    lines += [
        "",
        "### Preprocessing",
        "",
        "- Hypotheses and references were scored as given (detokenized text): each metric "
        "tokenizes internally with the tokenizer above, and no other normalization, "
        "filtering or truecasing was applied by the tool.",
        f"- Notes: {context.notes}"
        if context.notes
        else "- Notes: none given (add yours with `--notes`).",
    ]
    if context.command:
        lines += ["", "### Command", "", "```", context.command, "```"]
    return "\n".join(lines)
