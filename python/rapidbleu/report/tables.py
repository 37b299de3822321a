"""sacreBLEU's output formats, byte for byte, rendered from a results model.

One system: one ``Score.format`` line (or JSON object) per metric, aligned on ``=``
(``print_single_results``). Several systems: sacreBLEU's table (``tabulate``'s ``fancy_grid``
for text, ``latex_booktabs`` for LaTeX) and the signature block, or a JSON list
(``print_results_table``). Both functions are in ``sacrebleu/utils.py``; the paired-test
legend and colours follow it line by line.

One deliberate difference: under NumPy 2, sacreBLEU's JSON output of a paired test with chrF
or TER crashes (``Object of type float32 is not JSON serializable``); here NumPy numbers are
written as JSON numbers, as sacreBLEU writes them under NumPy 1.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

import rapidbleu._config as _config
from rapidbleu.report.model import Results

__all__ = ["print_results_table", "render", "single_results"]

_COLORS = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
_RESET = "\x1b[0m"


def _color(msg: str, color: str, enabled: bool) -> str:
    return f"{_COLORS[color]}{msg}{_RESET}" if enabled else msg


def single_results(results: Sequence[str], fmt: str) -> str:
    """Joins results as sacreBLEU's ``print_single_results``: one per metric, aligned on ``=``.

    Example:
        >>> print(single_results(["BLEU = 1.0", "chrF2 = 22.5"], "text"))
         BLEU = 1.0
        chrF2 = 22.5
    """
    if fmt == "json":
        return "[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0]
    if len(results) == 1:
        return results[0]
    lens = []
    lines = []
    for line in results:
        if "=" in line:
            lens.append(line.index("=") - 1)
        else:
            lines.append(line)  # printed at once, as sacreBLEU does
    if lens:
        w = max(lens)
        lines += [f"{line[:n]:>{w}}{line[n:]}" for n, line in zip(lens, results)]
    return "\n".join(lines)


def render(
    results: Results,
    fmt: str,
    width: int,
    *,
    score_only: bool = False,
    short: bool = False,
    colors: bool = False,
) -> str:
    """What sacreBLEU's command prints for ``results`` (without the final newline).

    Args:
        results: The results.
        fmt: ``json``, ``text`` or ``latex``.
        width: Decimals.
        score_only: ``-b``: the numbers alone (one system).
        short: ``-sh``: short signatures (JSON of one system always has the long one).
        colors: Colour the paired-test table (a terminal without ``NO_COLOR``).

    Returns:
        The text to print.

    Example:
        >>> from rapidbleu.metrics import BLEU
        >>> bleu = BLEU()
        >>> s = bleu.corpus_score(["a b c d"], [["a b c d"]])
        >>> render(Results.of_scores({"x": {"BLEU": s}}, {"BLEU": bleu.get_signature()}),
        ...        "text", 1, score_only=True)
        '100.0'
    """
    if len(results.systems) == 1 and results.test is None:
        lines = []
        for metric in results.metrics:
            sig = results.signatures[metric].format(short if fmt != "json" else False)
            score = results.cells[metric][0].score
            lines.append(score.format(width, score_only, sig, fmt == "json"))
        return single_results(lines, fmt)
    table: dict[str, list[Any]] = {"System": list(results.systems)}
    for metric in results.metrics:
        cells = results.cells[metric]
        if results.test is None:
            table[metric] = [c.score.format(width, True) for c in cells]
        else:
            # Imported here: a paired test's tables need it, a corpus score's never (NumPy).
            from rapidbleu.analysis.significance import Result

            table[metric] = [Result(c.score.score, c.p_value, c.mean, c.ci) for c in cells]
    out = io.StringIO()
    print_results_table(
        table,
        {m: results.signatures[m].format(short) for m in results.metrics},
        fmt,
        width,
        out,
        test=results.test,
        n_samples=results.n_samples,
        colors=colors,
    )
    return out.getvalue().removesuffix("\n")


def _json_value(item: Any) -> Any:
    """A table cell for JSON: text as it is, a ``Result`` as its fields (NumPy numbers too)."""
    if isinstance(item, str):
        return item
    np = _config.loaded_numpy()  # a NumPy scalar exists only once NumPy is loaded
    if np is None:
        return dict(item.__dict__)
    return {k: (v.item() if isinstance(v, np.generic) else v) for k, v in item.__dict__.items()}


def _format_score_lines(
    scores: dict[str, list[Any]], width: int, multiline: bool, colors: bool
) -> dict[str, list[str]]:
    """SacreBLEU's ``utils._format_score_lines``."""
    new_scores: dict[str, list[Any]] = {"System": scores.pop("System")}
    p_val_break_char = "\n" if multiline else " "
    is_bootstrap = False

    def _color_p_value(p: float) -> str:
        msg = f"(p = {p:.4f})"
        if p > 0.05:
            return _color(msg, "red", colors)
        return msg + "*"

    for metric, vals in scores.items():
        new_vals = []
        for result in vals:
            if not isinstance(result, str):
                _str = f"{result.score:.{width}f}"
                if result.mean is not None:
                    is_bootstrap = True
                    _str += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
                if result.p_value is not None:
                    _str += p_val_break_char + _color_p_value(result.p_value)
            else:
                _str = result
            new_vals.append(_str)
        if is_bootstrap:
            metric += " (μ ± 95% CI)"
        new_scores[metric] = new_vals
    return new_scores


def print_results_table(
    results: dict[str, list[Any]],
    signatures: Mapping[str, str],
    fmt: str,
    width: int,
    out: Any,
    *,
    test: str | None = None,
    n_samples: int | None = None,
    colors: bool = False,
) -> None:
    """SacreBLEU's ``utils.print_results_table``, written to ``out``.

    Args:
        results: ``"System"`` -> names, then per metric one formatted score or ``Result``
            per system.
        signatures: Per metric, its signature string.
        fmt: ``json``, ``text`` (``fancy_grid``) or ``latex`` (``latex_booktabs``).
        width: Decimals.
        out: Where to write.
        test: ``"bs"`` or ``"ar"`` for a paired test (adds sacreBLEU's legend).
        n_samples: Its resamples or trials.
        colors: sacreBLEU's terminal colours.
    """
    from tabulate import tabulate  # type: ignore[import-untyped]

    def say(text: str = "") -> None:
        out.write(text + "\n")

    if fmt == "json":
        proper_json = []
        keys = list(results.keys())
        for i in range(len(results["System"])):
            value: dict[str, Any] = {"system": results["System"][i]}
            for key in keys[1:]:
                value[key] = _json_value(results[key][i])
            proper_json.append(value)
        say(json.dumps(proper_json, indent=4))
        return
    tablefmt = {"text": "fancy_grid", "latex": "latex_booktabs"}.get(fmt, fmt)
    formatted = _format_score_lines(
        dict(results), width, multiline=tablefmt == "fancy_grid", colors=colors
    )
    new_dict = {}
    has_baseline = False
    baseline_name = ""
    for name in formatted:
        val = formatted[name]
        if val[0].startswith("Baseline:") or has_baseline:
            if val[0].startswith("Baseline:"):
                baseline_name = val[0]
            has_baseline = True
            val[0] = _color(val[0], "yellow", colors)
        new_dict[_color(name, "cyan", colors)] = formatted[name]
    say(
        tabulate(
            new_dict,
            headers="keys",
            tablefmt=tablefmt,
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=f".{width}f",
        )
    )
    say()
    if test is not None:
        _legend(say, test, n_samples, baseline_name, colors)
    say("-----------------")
    say("Metric signatures")
    say("-----------------")
    for name, sig in signatures.items():
        say(f" - {name:<10} {sig}")


def _legend(say: Any, test: str, n: int | None, baseline_name: str, colors: bool) -> None:
    """The paired-test explanation that sacreBLEU prints under the table."""
    test_type = "bootstrap resampling" if test == "bs" else "approximate randomization"
    kind = "resampling trials" if test == "bs" else "trials"
    msg = f"Paired {test_type} test with {n} {kind}"
    bline = _color("baseline", "yellow", colors)
    bline_name = _color(baseline_name, "yellow", colors)
    null_hyp = _color("Null hypothesis", "green", colors)
    pval_color = _color("highlighted in red", "red", colors)
    say("-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg))
    say(f" - Each system is pairwise compared to {bline_name}.")
    if test == "bs":
        say(
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided "
            "for each metric."
        )
    else:
        say("   Actual system score is provided for each metric.")
    say()
    say(f" - {null_hyp}: the system and the {bline} translations are essentially")
    say(f"   generated by the same underlying process. For a given system and the {bline},")
    say("   the p-value is roughly the probability of the absolute score difference (delta)")
    say(
        "   or higher occurring due to chance, under the assumption that the "
        f"{null_hyp.lower()} is correct."
    )
    say()
    say(f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected")
    say(
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely '
        "to be attributed"
    )
    say(f'   to chance, hence the system is significantly "different" than the {bline}.')
    say(f"   Otherwise, the p-values are {pval_color}.")
    say()
    say(
        ' - NOTE: Significance does not tell whether a system is "better" than the '
        f"{bline} but rather"
    )
    say('   emphasizes the "difference" of the systems in terms of the replicability of the delta.')
    say()
