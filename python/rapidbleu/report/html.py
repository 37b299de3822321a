"""The report as one self-contained HTML file: a Jinja2 template, Vega-Lite charts, no network.

The page inlines everything it uses: its style sheet, its script, the Vega, Vega-Lite and
Vega-Embed JavaScript (bundled by ``vl-convert-python``, about 0.9 MB) and the report's data
as JSON. A Content-Security-Policy in the page allows only those scripts (by their SHA-256
hashes) and no connections, so the page cannot load anything, and a script that system output
somehow smuggled in would not run. System text reaches the page only through Jinja2's
autoescaping (HTML) and through JSON with ``<``, ``>`` and ``&`` escaped (the data block).

Jinja2 and vl-convert-python are the ``report`` extra; this module imports them only when a
report is rendered (``import rapidbleu`` never does), and says how to install them otherwise.

Example:
    >>> from rapidbleu.metrics import BLEU
    >>> from rapidbleu.report.build import ReportInput, ReportOptions, build_report
    >>> data = ReportInput([("<b>sys</b>", ["a b c", "d e f"])], [["a b c", "d e g"]])
    >>> page = render_html(build_report(data, {"bleu": BLEU()},
    ...                                 options=ReportOptions(confidence_n=10)))
    >>> "&lt;b&gt;sys&lt;/b&gt;" in page and "<b>sys</b>" not in page
    True
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.metadata
import json
import os
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rapidbleu.errors import MissingDependencyError
from rapidbleu.extras import install_hint
from rapidbleu.report import charts
from rapidbleu.report.build import Report
from rapidbleu.report.card import SIGNIFICANCE_LEVEL, CardContext, render_card, signature_fields
from rapidbleu.version import SACREBLEU_VERSION, __version__

__all__ = ["INSTALL_HINT", "render_html", "require_extra"]

#: What to run when the report's libraries are missing (rapidbleu is on no package index).
INSTALL_HINT = install_hint("report")

_TEMPLATES = Path(__file__).with_name("templates")
# vl-convert's default snippet: Vega-Embed, Vega and Vega-Lite as globals of the page.
_BUNDLE_SNIPPET = "window.vegaEmbed = vegaEmbed; window.vega = vega; window.vegaLite = vegaLite;"


def require_extra() -> None:
    """Raises :class:`~rapidbleu.errors.MissingDependencyError` if the ``report`` extra is missing.

    The message names the missing libraries and the install command.

    Example:
        >>> require_extra()  # the test environment has the extra
    """
    missing = []
    for module in ("jinja2", "vl_convert"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module.replace("_", "-") + ("-python" if module == "vl_convert" else ""))
    if missing:
        raise MissingDependencyError(
            f"the HTML report needs {', '.join(missing)}, the 'report' extra: {INSTALL_HINT}"
        )


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _cache_path() -> Path:
    """Where the bundled JavaScript is kept between runs (``$XDG_CACHE_HOME/rapidbleu``)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = f"{_version('vl-convert-python')}|{_BUNDLE_SNIPPET}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    return Path(root) / "rapidbleu" / f"vega-bundle-{digest}.js"


@functools.lru_cache(maxsize=1)
def _vega_js() -> str:
    """Vega, Vega-Lite and Vega-Embed in one script.

    Bundling takes vl-convert two to four seconds, half of a 16-system report, and gives the
    same text for the same vl-convert version: it is kept in the user's cache directory (a
    cache that cannot be read or written is simply not used).
    """
    path = _cache_path()
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        pass
    import vl_convert

    # The bundle sits inside <script>...</script>; a closing tag in it would end the element.
    js = vl_convert.javascript_bundle(_BUNDLE_SNIPPET).replace("</script", "<\\/script")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(js, encoding="utf-8")
        os.replace(tmp, path)  # atomic: a concurrent run reads the old file or the new one
    except OSError:
        pass
    return js


def _versions() -> list[tuple[str, str]]:
    import vl_convert

    return [
        ("rapidbleu", __version__),
        ("sacreBLEU (reproduced)", SACREBLEU_VERSION),
        ("Python", platform.python_version()),
        ("NumPy", np.__version__),
        ("Jinja2", _version("jinja2")),
        ("vl-convert-python", _version("vl-convert-python")),
        ("Vega", vl_convert.get_vega_version()),
        ("Vega-Lite", vl_convert.get_vegalite_versions()[-1]),
    ]


def _json_for_script(data: Any) -> str:
    """JSON that can sit inside ``<script type="application/json">`` whatever strings it holds."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(ch, esc)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _csp_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _extent(values: np.ndarray[Any, Any]) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return (0.0, 1.0)
    lo, hi = float(finite.min()), float(finite.max())
    return (lo, hi if hi > lo else lo + 1.0)


def _display_names(names: Sequence[str]) -> list[str]:
    """File names without their folders, when that keeps them apart."""
    short = [n.replace("\\", "/").rsplit("/", 1)[-1] or n for n in names]
    return short if len(set(short)) == len(short) else list(names)


def _payload(report: Report, names: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The data block (chart specs, compact sentence scores) and where each chart goes."""
    specs: list[dict[str, Any]] = []

    def add(spec: dict[str, Any]) -> int:
        specs.append(spec)
        return len(specs) - 1

    shown = _renamed(report, names)
    ids: dict[str, Any] = {"intervals": [], "distributions": [], "buckets": [], "scatter": None}
    for k, view in enumerate(report.metrics):
        has_ci = any(c.ci is not None for c in report.results.cells[view.name])
        ids["intervals"].append(
            add(charts.interval_chart(shown, view.name, view.higher_is_better)) if has_ci else None
        )
        ids["distributions"].append(
            add(charts.distribution_chart(view.name, k, names, _extent(view.sentence)))
        )
        ids["buckets"].append(
            [
                add(charts.buckets_chart(b.title, names, b.labels, b.counts, b.scores, view.name))
                for b in view.buckets
            ]
        )
    if len(names) > 1:
        view = report.metrics[0]
        ids["scatter"] = add(charts.scatter_chart(view.name, 0, names, _extent(view.sentence)))
    payload = {
        "systems": names,
        # Not-finite scores (a metric's 0/0) become null: JSON has no NaN.
        "sentences": [
            [[charts.number(x, 2) for x in row] for row in v.sentence.tolist()]
            for v in report.metrics
        ],
        "specs": specs,
    }
    return payload, ids


def _renamed(report: Report, names: list[str]) -> Any:
    """The results with display names (for the interval chart)."""
    from dataclasses import replace

    return replace(report.results, systems=names)


def render_html(
    report: Report,
    *,
    command: str | None = None,
    notes: str | None = None,
    title: str | None = None,
) -> str:
    """The report as one self-contained HTML page.

    Args:
        report: The computed report (:func:`rapidbleu.report.build.build_report`).
        command: The command line that made it (shown in the footer and the card).
        notes: The authors' notes on preprocessing (shown in the card).
        title: The page's title (default: the metrics and the number of systems).

    Returns:
        The page.

    Raises:
        rapidbleu.errors.MissingDependencyError: The ``report`` extra is not installed.
    """
    require_extra()
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    data = report.input
    names = _display_names([n for n, _ in data.systems])
    context = CardContext(
        len(data.systems[0][1]),
        list(data.reference_names),
        data.source_name,
        data.langpair,
        notes,
        command,
    )
    card = render_card(report.results, context, width=1)
    payload, chart_ids = _payload(report, names)
    script = (_TEMPLATES / "report.js").read_text(encoding="utf-8")
    vega = _vega_js()
    page = env.get_template("report.html.j2").render(
        title=title
        or f"rapidbleu report: {', '.join(report.results.metrics)}, "
        f"{len(names)} system{'s' if len(names) != 1 else ''}",
        report=report,
        results=report.results,
        names=names,
        n_segments=context.n_segments,
        significance=SIGNIFICANCE_LEVEL,
        card=card,
        command=command,
        versions=_versions(),
        signature_fields=signature_fields,
        style=(_TEMPLATES / "report.css").read_text(encoding="utf-8"),
        data_json=_json_for_script(payload),
        chart_ids=chart_ids,
        vega_js=vega,
        report_js=script,
        csp_scripts=" ".join([_csp_hash(vega), _csp_hash(script)]),
    )
    return page
