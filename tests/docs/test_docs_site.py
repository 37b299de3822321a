"""The documentation site builds with ``mkdocs build --strict`` and works in a browser.

- The build (in a subprocess, with a timeout) fails on any warning: a broken link or anchor, a
  page missing from the navigation, an API reference that does not resolve. It uses the
  installed ``rapidbleu`` (the hook renders the command-line reference from its parsers).
- The built site is served on 127.0.0.1 and opened in headless Chromium (``browsertools``):
  the home page, an API page and the search box work, with no console error and no request to
  any other host (every such request is recorded and aborted). Screenshots go to
  ``benchmarks/results/docs/`` (git-ignored).
- The extras that messages name (:data:`rapidbleu.extras.EXTRAS`) are ``pyproject.toml``'s.
"""

from __future__ import annotations

import html
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
import tomllib
from browsertools import launch

from rapidbleu.cli.args import build_parser
from rapidbleu.cli.report import build_report_parser
from rapidbleu.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "benchmarks" / "results" / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-5000:]
    assert "WARNING" not in done.stderr, done.stderr[-5000:]
    return out


def test_site_builds_strict(site: Path) -> None:
    for page in ("index.html", "cli-reference/index.html", "api/metrics/index.html"):
        assert (site / page).is_file(), page
    assert (site / "search" / "search_index.json").is_file()


def test_cli_reference_is_the_parsers_help(site: Path) -> None:
    page = (site / "cli-reference" / "index.html").read_text("utf-8")
    for parser in (build_parser(), build_report_parser()):
        for line in parser.format_help().splitlines():
            assert html.escape(line, quote=False) in page or not line.strip(), line


def test_help_tells_the_truth() -> None:
    main_help = build_parser().format_help()
    assert "rapidbleu report" in main_help
    report_help = build_report_parser().format_help()
    for absent in ("--format", "--width", "--score-only", "--scale", "--sentence-level"):
        assert absent not in report_help, absent
    assert "(default: bleu chrf ter)" in " ".join(report_help.split())  # however it wraps


def test_api_reference_has_the_docstrings(site: Path) -> None:
    page = (site / "api" / "metrics" / "index.html").read_text("utf-8")
    assert 'id="rapidbleu.metrics.bleu.BLEU"' in page
    assert "sentence_scores" in page
    # reStructuredText roles become code, and Example: sections code blocks.
    assert ":func:`" not in page and ":class:`" not in page
    assert "<blockquote>" not in page  # a >>> line read as Markdown would be a quote


def test_extras_are_pyprojects() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    for extra, requirements in EXTRAS.items():
        assert tuple(declared[extra]) == requirements, extra


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=site,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                with urlopen(url, timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_site_in_chromium(server: str, browser: Any) -> None:
    host = urlsplit(server).netloc
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console: list[str] = []
    outside: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))

    def route(r: Any) -> None:
        if urlsplit(r.request.url).netloc == host:
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    SHOTS.mkdir(parents=True, exist_ok=True)

    page.goto(server, wait_until="networkidle")
    assert page.locator("h1").first.inner_text().startswith("rapidbleu")
    assert page.locator("nav.md-nav").count() >= 1
    page.screenshot(path=str(SHOTS / "home.png"), full_page=False)

    page.goto(server + "api/metrics/", wait_until="networkidle")
    assert page.locator('[id="rapidbleu.metrics.bleu.BLEU"]').count() == 1
    assert page.locator("pre code").count() >= 3  # signatures and examples as code

    page.goto(server + "cli-reference/", wait_until="networkidle")
    assert "rapidbleu report" in page.locator("article").inner_text()
    page.screenshot(path=str(SHOTS / "cli-reference.png"), full_page=False)

    # The search box: Material's search runs in a web worker over search_index.json.
    page.goto(server, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("bootstrap", delay=20)  # typed: the search listens to keys
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=30_000)
    assert results.count() >= 1
    assert "bootstrap" in page.locator(".md-search-result").inner_text().lower()
    page.screenshot(path=str(SHOTS / "search.png"), full_page=False)

    errors = [m for m in console if m.split(":")[0] in ("error", "pageerror")]
    assert errors == []
    assert outside == []
    context.close()
