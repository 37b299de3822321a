"""The report's charts as Vega-Lite specifications (plain dicts, rendered in the page).

Vega-Lite is declarative: each chart is data plus an encoding, drawn in the browser by the
Vega JavaScript library that the page inlines (:mod:`rapidbleu.report.html`), with tooltips
on hover. The large data (every segment's score under every system) is not repeated in each
spec: a spec that needs it names the dataset ``sentences`` and carries
``usermeta.sentences = <metric index>``, and the page's script builds those rows once from the
compact arrays of the report's data. See ``docs/report.md`` for why Vega-Lite.

Example:
    >>> spec = buckets_chart("BLEU", ["a", "b"], ["< 10", "10+"], [3, 4], [[1.0, 2.0], [3.0, 4.0]])
    >>> spec["mark"]["type"], len(spec["data"]["values"])
    ('line', 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rapidbleu.report.card import SIGNIFICANCE_LEVEL
from rapidbleu.report.model import Results

__all__ = [
    "buckets_chart",
    "distribution_chart",
    "interval_chart",
    "number",
    "scatter_chart",
]

Spec = dict[str, Any]


def number(x: Any, digits: int = 4) -> float | None:
    """A score as a JSON number: a Python float, rounded; ``None`` when missing or not finite.

    Scores may be NumPy float32 (chrF and TER resample in float32), which JSON cannot write.

    Example:
        >>> import numpy as np
        >>> number(np.float32(1.5)), number(None), number(float("nan"))
        (1.5, None, None)
    """
    if x is None or not math.isfinite(float(x)):
        return None
    return round(float(x), digits)


def _scheme(n: int) -> str:
    """Ten clearly distinct colours; twenty (in light/dark pairs) when there are more systems."""
    return "tableau10" if n <= 10 else "tableau20"


_FONT = {"font": "system-ui, sans-serif"}


def _config() -> Spec:
    # Axis labels never overlap, whatever the font the reader's browser picks ("51.051.5" on
    # a chrF axis before): Vega drops a label that would come within 6 px of its neighbour.
    axis = {"labelOverlap": "greedy", "labelSeparation": 6}
    return {
        "config": {
            "view": {"stroke": None},
            "axis": {
                "labelFontSize": 11,
                "titleFontSize": 12,
                "labelLimit": 260,
                **axis,
                **_FONT,
            },
            "axisQuantitative": axis,
            "legend": {"labelLimit": 260, **_FONT},
            "header": {"labelFontSize": 11, "labelLimit": 200, **_FONT},
        }
    }


def interval_chart(results: Results, metric: str, higher_is_better: bool) -> Spec:
    """Each system's score with its 95% confidence interval (and significance) under a metric.

    Args:
        results: The scores.
        metric: The metric's name in ``results``.
        higher_is_better: The metric's direction (to say "better" or "worse").

    Returns:
        The spec.

    Example:
        >>> from rapidbleu.metrics import Score, Signature
        >>> from rapidbleu.report.model import Cell
        >>> res = Results(["a"], ["M"], {}, {"M": [Cell(Score("M", 5.0), None, 5.1, 0.5)]})
        >>> interval_chart(res, "M", True)["data"]["values"][0]["low"]
        4.6
    """
    rows = []
    for i, (system, cell) in enumerate(zip(results.systems, results.cells[metric])):
        if i == 0 and results.test is not None:
            role = "baseline"
        elif cell.p_value is None:
            role = "system"
        elif cell.p_value >= SIGNIFICANCE_LEVEL:
            role = "not significant"
        else:
            better = (cell.value > results.cells[metric][0].value) == higher_is_better
            role = "significantly better" if better else "significantly worse"
        mean, ci = number(cell.mean), number(cell.ci)
        has_ci = mean is not None and ci is not None
        rows.append(
            {
                "system": system,
                "order": i,
                "score": number(cell.value),
                "mean": mean,
                "ci": ci,
                "low": round(mean - ci, 4) if mean is not None and ci is not None else None,
                "high": round(mean + ci, 4) if mean is not None and ci is not None else None,
                "p": number(cell.p_value, 6),
                # Tooltip text: a missing interval or p-value reads "–", not "null".
                "ci_text": f"μ = {mean:.2f} ± {ci:.2f}" if has_ci else "–",
                "p_text": "–" if cell.p_value is None else f"{cell.p_value:.4f}",
                "role": role,
            }
        )
    palette = {
        "baseline": "#444444",
        "system": "#4c78a8",
        "not significant": "#9d9d9d",
        "significantly better": "#2e7d32",
        "significantly worse": "#c62828",
    }
    # Only the roles present, so the legend does not list what the chart does not show.
    present = {row["role"] for row in rows}
    roles = [r for r in palette if r in present]
    colors = [palette[r] for r in roles]
    y = {"field": "system", "type": "nominal", "sort": {"field": "order"}, "title": None}
    return {
        "data": {"values": rows},
        "width": 520,
        "height": {"step": 22},
        "encoding": {"y": y},
        "layer": [
            {
                "transform": [{"filter": "isValid(datum.low)"}],
                "mark": {"type": "rule", "strokeWidth": 2, "color": "#8a8a8a"},
                "encoding": {
                    "x": {"field": "low", "type": "quantitative", "scale": {"zero": False}},
                    "x2": {"field": "high"},
                },
            },
            {
                "mark": {"type": "point", "filled": True, "size": 70},
                "encoding": {
                    "x": {
                        "field": "score",
                        "type": "quantitative",
                        "scale": {"zero": False},
                        "title": f"{metric} (point: score; line: 95% confidence interval)",
                    },
                    "color": {
                        "field": "role",
                        "type": "nominal",
                        "scale": {"domain": roles, "range": colors},
                        "title": None,
                    },
                    "tooltip": [
                        {"field": "system", "title": "System"},
                        {"field": "score", "title": metric, "format": ".2f"},
                        {"field": "ci_text", "title": "95% CI"},
                        {"field": "p_text", "title": "p-value"},
                        {"field": "role", "title": "vs baseline"},
                    ],
                },
            },
        ],
        **_config(),
    }


def distribution_chart(
    metric: str, index: int, systems: Sequence[str], extent: tuple[float, float]
) -> Spec:
    """Histograms of a metric's sentence scores, one small chart per system.

    Args:
        metric: The metric's name.
        index: The metric's position (which sentence scores the page fills in).
        systems: System names, in order.
        extent: The range of the bins (lowest and highest sentence score).

    Returns:
        The spec (dataset ``sentences``, filled in by the page).
    """
    return {
        "data": {"name": "sentences"},
        "usermeta": {"sentences": index},
        "facet": {
            "field": "name",
            "type": "nominal",
            "sort": list(systems),
            "title": None,
        },
        "columns": 4,
        "spec": {
            "width": 170,
            "height": 70,
            "mark": {"type": "bar", "color": "#4c78a8"},
            "encoding": {
                "x": {
                    "field": "v",
                    "bin": {"maxbins": 20, "extent": list(extent)},
                    "title": f"sentence {metric}",
                },
                "y": {"aggregate": "count", "title": "segments"},
                "tooltip": [
                    {"field": "v", "bin": {"maxbins": 20, "extent": list(extent)}, "title": metric},
                    {"aggregate": "count", "title": "segments"},
                ],
            },
        },
        "resolve": {"axis": {"x": "independent"}},
        **_config(),
    }


def scatter_chart(
    metric: str, index: int, systems: Sequence[str], extent: tuple[float, float]
) -> Spec:
    """Each segment's sentence score: baseline (x) against a system picked in a menu (y).

    Hovering a point shows the segment (its text, for the segments the report lists);
    clicking opens it in the segment list.

    Args:
        metric: The metric's name.
        index: The metric's position (which sentence scores the page fills in).
        systems: System names, the baseline first (two or more).
        extent: The axes' range.

    Returns:
        The spec (dataset ``sentences``, filled in by the page with ``b``, the baseline's
        score, on each row).
    """
    scale = {"domain": list(extent), "nice": False}
    return {
        "data": {"name": "sentences"},
        "usermeta": {"sentences": index, "pairs": True},
        "params": [
            {
                "name": "pick",
                "value": systems[1],
                "bind": {"input": "select", "options": list(systems[1:]), "name": "System: "},
            }
        ],
        "transform": [{"filter": "datum.s > 0 && datum.name == pick"}],
        "width": 420,
        "height": 420,
        "layer": [
            {
                "mark": {"type": "point", "filled": True, "size": 28, "opacity": 0.45},
                "encoding": {
                    "x": {
                        "field": "b",
                        "type": "quantitative",
                        "scale": scale,
                        "title": f"baseline: {systems[0]} (sentence {metric})",
                    },
                    "y": {
                        "field": "v",
                        "type": "quantitative",
                        "scale": scale,
                        "title": f"picked system (sentence {metric})",
                    },
                    "color": {
                        "field": "shown",
                        "type": "nominal",
                        "scale": {
                            "domain": ["listed below", "other"],
                            "range": ["#e45756", "#4c78a8"],
                        },
                        "title": "segment",
                    },
                    "tooltip": [
                        {"field": "seg", "title": "Segment"},
                        {"field": "b", "title": "baseline", "format": ".2f"},
                        {"field": "v", "title": "system", "format": ".2f"},
                        {"field": "ref", "title": "reference"},
                        {"field": "hyp", "title": "output"},
                    ],
                    "href": {"field": "link"},
                },
            },
        ],
        **_config(),
    }


def buckets_chart(
    title: str,
    systems: Sequence[str],
    labels: Sequence[str],
    counts: Sequence[int],
    scores: Sequence[Sequence[float]],
    metric: str = "score",
) -> Spec:
    """Corpus scores of segment groups, one line per system.

    Args:
        title: What the groups are (the x axis).
        systems: System names.
        labels: Group labels.
        counts: Segments per group.
        scores: ``scores[system][group]``.
        metric: The metric's name (the y axis).

    Returns:
        The spec.
    """
    rows = [
        {
            "system": name,
            "order": s,
            "bucket": f"{label} ({count})",
            "b": b,
            "count": count,
            "score": number(scores[s][b]),
        }
        for s, name in enumerate(systems)
        for b, (label, count) in enumerate(zip(labels, counts))
    ]
    return {
        "data": {"values": rows},
        "width": 520,
        "height": 260,
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {
                "field": "bucket",
                "type": "ordinal",
                "sort": {"field": "b"},
                "title": f"{title} (segments)",
                "axis": {"labelAngle": 0},
            },
            "y": {
                "field": "score",
                "type": "quantitative",
                "scale": {"zero": False},
                "title": metric,
            },
            "color": {
                "field": "system",
                "type": "nominal",
                "sort": list(systems),
                "scale": {"scheme": _scheme(len(systems))},
                "title": None,
            },
            "tooltip": [
                {"field": "system", "title": "System"},
                {"field": "bucket", "title": "Group (segments)"},
                {"field": "score", "title": metric, "format": ".2f"},
            ],
        },
        **_config(),
    }
