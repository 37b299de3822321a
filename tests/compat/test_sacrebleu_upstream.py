"""sacreBLEU 2.6.0's own tests (``tests/upstream/sacrebleu/test``, unchanged) against rapidbleu.

They run in a pytest subprocess in ``tests/upstream/sacrebleu`` (upstream's ``pytest.ini``; its
``conftest.py`` puts the thin ``shim/sacrebleu`` first on ``sys.path``), so that ``sacrebleu``
names rapidbleu there and only there: every other test in this process imports the real
sacreBLEU as its oracle. The upstream tests left out, and why, are listed in
``tests/upstream/sacrebleu/README.md`` (files) and in ``DESELECTED`` in its ``conftest.py``
(single tests); nothing is skipped.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import sacrebleu

HERE = Path(__file__).resolve().parents[1] / "upstream" / "sacrebleu"
#: ``git ls-tree -r v2.6.0 test pytest.ini`` in mjpost/sacrebleu: ``mode blob <sha1>\tpath``.
MANIFEST = HERE / "UPSTREAM"


def _git_blob_id(data: bytes) -> str:
    """The id git gives a file's content (``git hash-object``), as in ``git ls-tree``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _upstream_ids() -> dict[str, str]:
    ids = {}
    for line in MANIFEST.read_text().splitlines():
        meta, path = line.split("\t")
        ids[path] = meta.split()[2]
    return ids


def _copied() -> list[str]:
    return ["pytest.ini", *(f"test/{p.name}" for p in sorted((HERE / "test").iterdir()))]


def test_upstream_files_are_unchanged() -> None:
    # Each copied file is byte for byte the v2.6.0 file (git blob ids from upstream's tree).
    ids = _upstream_ids()
    for path in _copied():
        assert path in ids, f"{path} is not a file of sacreBLEU v2.6.0's test/"
        assert _git_blob_id((HERE / path).read_bytes()) == ids[path], f"{path} was changed"


def test_upstream_tests_pass_through_the_shim(tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    env = {
        **os.environ,
        "SACREBLEU": str(tmp_path / "cache"),  # never the user's cache; nothing downloads
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--junitxml={report}"],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-6000:]
    cases = ET.parse(report).getroot().iter("testcase")
    outcomes: Counter[tuple[str, str]] = Counter()
    for case in cases:
        bad = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        kind = bad[0] if bad else "passed"
        outcomes[case.get("classname", "").split(".")[-1], kind] += 1
    summary = re.findall(r"^=*\s*(\d+ passed.*?) in [\d.]+s", out, re.M)
    print(f"sacreBLEU's own tests through the shim: {summary}; by file: {dict(outcomes)}")
    assert {kind for _, kind in outcomes} == {"passed"}, out[-6000:]
    # Every upstream test file that is here ran tests (none was silently collected empty).
    ran = {module for module, _ in outcomes}
    assert ran == {Path(p).stem for p in _copied() if p.endswith(".py")}
    assert summary and "skipped" not in summary[0] and "xfail" not in summary[0], out[-3000:]


def test_the_rest_of_the_suite_keeps_the_real_sacrebleu() -> None:
    assert sacrebleu.__name__ == "sacrebleu" and sacrebleu.__file__ is not None
    assert Path(sacrebleu.__file__).resolve().parents[1] != HERE / "shim"
    assert "_sacrebleu_installed" not in sys.modules
