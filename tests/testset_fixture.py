"""A WMT17 en-de test set laid out as sacreBLEU lays it out, built from the real reference.

sacreBLEU's registry says ``wmt17`` is the archive ``test.tgz`` holding
``test/newstest2017-ende-src.en.sgm`` and ``test/newstest2017-ende-ref.de.sgm``, stored as
``$SACREBLEU/wmt17/raw/wmt17.test.tgz`` and extracted next to it. This builds such an archive
from ``wmt17.en-de/ref.A.de`` (the real reference, 3004 segments) with a synthetic source
(``source segment N``) and synthetic documents of 40 segments whose ``origlang`` alternates
``en``/``de``, so ``--origlang`` has something to select. Both sacreBLEU and rapidbleu then read
the same cache, offline.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from conftest import DATA, read_lines

URL = "https://data.statmt.org/wmt17/translation-task/test.tgz"
SRC = "test/newstest2017-ende-src.en.sgm"
REF = "test/newstest2017-ende-ref.de.sgm"
DOC = 40


def _sgm(lines: list[str], setid: str, kind: str) -> str:
    out = [f'<{kind}set setid="{setid}" srclang="any">']
    for start in range(0, len(lines), DOC):
        doc = start // DOC
        origlang = "en" if doc % 2 == 0 else "de"
        out.append(f'<doc sysid="ref" docid="doc{doc}" genre="news" origlang="{origlang}">')
        for k, line in enumerate(lines[start : start + DOC], start=start + 1):
            out.append(f'<seg id="{k}">{line}</seg>')
        out.append("</doc>")
    out.append(f"</{kind}set>")
    return "\n".join(out) + "\n"


def archive() -> bytes:
    """``test.tgz`` with the two SGM files (what sacreBLEU would download)."""
    ref = read_lines(DATA / "wmt17.en-de" / "ref.A.de")
    src = [f"source segment {i}" for i in range(1, len(ref) + 1)]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in ((SRC, _sgm(src, "newstest2017", "src")),
                           (REF, _sgm(ref, "newstest2017", "ref"))):  # fmt: skip
            data = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def populate(cache: Path) -> Path:
    """A sacreBLEU cache (``$SACREBLEU``) holding wmt17's archive, downloaded and extracted."""
    raw = cache / "wmt17" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    data = archive()
    (raw / "wmt17.test.tgz").write_bytes(data)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(raw, filter="data")
    return cache
