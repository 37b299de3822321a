"""Headless Chromium for the browser tests (the report's and the documentation site's).

Chromium comes from the system (``scripts/test.sh`` installs Debian's ``chromium``, or stops
saying what to install); Playwright only drives it and downloads nothing. Without Chromium a
browser test fails under ``scripts/test.sh`` and CI (``RAPIDBLEU_REQUIRE_BROWSER``, ``CI``) and
skips elsewhere, saying what to install; ``RAPIDBLEU_CHROMIUM`` points at another binary.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = (
    os.environ.get("RAPIDBLEU_CHROMIUM")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
    or shutil.which("google-chrome")
)


def launch() -> Iterator[Any]:
    """Yields a Playwright browser on the system's Chromium (for a module-scoped fixture)."""
    if CHROMIUM is None:
        message = (
            "no Chromium: install Debian's chromium (apt-get install -y chromium; "
            "scripts/test.sh does) or set RAPIDBLEU_CHROMIUM to a Chromium binary"
        )
        if os.environ.get("CI") or os.environ.get("RAPIDBLEU_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
