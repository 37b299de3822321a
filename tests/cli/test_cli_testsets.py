"""sacreBLEU's test sets (``-t wmt17 -l en-de``, ``--echo``, ``--list``, ``--origlang``) offline.

sacreBLEU's cache (``$SACREBLEU``) is filled with a WMT17 en-de archive laid out as sacreBLEU lays
it out (``testset_fixture``), or served from a local HTTP server on 127.0.0.1; ``sacrebleu`` and
``rapidbleu`` run as commands on the same cache and must print the same bytes (apart from the
signature's version). Without a network the error says what to download and where to put it.
sacreBLEU reads ``$SACREBLEU`` when it is imported, so every run is a fresh process.
"""

from __future__ import annotations

import http.server
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import testset_fixture
from clitools import env, ours, sacrebleu, write_lines
from conftest import DATA, read_lines, strip_version

import rapidbleu
from rapidbleu import errors

WMT17 = DATA / "wmt17.en-de"
SYSTEMS = ["hyp.uedin-nmt.4722.de", "hyp.online-B.0.de"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return testset_fixture.populate(tmp_path_factory.mktemp("sacrebleu-cache"))


def _rapidbleu(
    args: list[str], cwd: Path, cache: Path, prelude: str = ""
) -> subprocess.CompletedProcess[bytes]:
    code = (
        "import sys\n" + prelude + "from rapidbleu.cli import console_main\n"
        f"sys.argv = ['rapidbleu', *{args!r}]\nconsole_main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        env={**env(), "SACREBLEU": str(cache)},
        timeout=300,
    )


def _same(args: list[str], cache: Path) -> str:
    theirs = sacrebleu(args, WMT17, extra_env={"SACREBLEU": str(cache)})
    ours_ = _rapidbleu(args, WMT17, cache)
    assert ours_.returncode == theirs.returncode == 0, ours_.stderr.decode()
    out = ours_.stdout.decode()
    assert strip_version(out) == theirs.stdout.decode()
    return out


@pytest.mark.parametrize(
    "extra",
    [
        ["-i", SYSTEMS[0]],
        ["-i", SYSTEMS[0], "-f", "text", "-w", "3"],
        ["-i", *SYSTEMS, "-f", "text"],
        ["-i", SYSTEMS[0], "--origlang", "en", "-f", "text"],
        ["-i", SYSTEMS[0], "--origlang", "non-en"],
        ["-i", SYSTEMS[0], "-sl", "-b"],
        ["-i", SYSTEMS[0], "-tok", "intl", "-lc", "-b"],
    ],
    ids=" ".join,
)
def test_scores_equal_sacrebleu(extra: list[str], cache: Path) -> None:
    out = _same(["-t", "wmt17", "-l", "en-de", *extra], cache)
    assert out.strip()


def test_origlang_selects_documents(cache: Path) -> None:
    """--origlang en keeps the even documents: the score of those lines as reference files."""
    args = ["-t", "wmt17", "-l", "en-de", "-i", SYSTEMS[0], "--origlang", "en", "-b", "-w", "6"]
    out = _same(args, cache)
    ref = read_lines(cache / "wmt17" / "wmt17.en-de.ref")
    hyp = read_lines(WMT17 / SYSTEMS[0])
    keep = [i for i in range(len(ref)) if (i // testset_fixture.DOC) % 2 == 0]
    expected = rapidbleu.corpus_bleu([hyp[i].rstrip() for i in keep], [[ref[i] for i in keep]])
    assert out == f"{expected.score:.6f}\n"


@pytest.mark.parametrize(
    "args",
    [
        ["-t", "wmt17", "-l", "en-de", "--echo", "src"],
        ["-t", "wmt17", "-l", "en-de", "--echo", "ref", "src", "--origlang", "de"],
        ["-t", "wmt17", "-l", "en-de", "--echo", "all"],
        ["--list", "-t", "wmt17"],
        ["--list", "-t", "wmt17", "-l", "en-de"],
        ["--list", "-l", "en-de"],
        ["--list"],
    ],
    ids=" ".join,
)
def test_information_equals_sacrebleu(args: list[str], cache: Path) -> None:
    _same(args, cache)


def test_citation(cache: Path) -> None:
    # sacreBLEU 2.6.0's --citation fails (`'citation' in Dataset`: a TypeError); rapidbleu prints
    # the registry's citation.
    import sacrebleu as sb

    done = _rapidbleu(["-t", "wmt17", "--citation"], WMT17, cache)
    assert done.returncode == 0 and done.stdout.decode() == sb.DATASETS["wmt17"].citation + "\n"


def test_reference_and_source_files(cache: Path) -> None:
    calls = "[{0}.get_reference_files(*p), {0}.get_source_file(*p), {1}.get_reference_files(*p)]"
    code = (
        "import json, rapidbleu, sacrebleu, rapidbleu.sacrebleu as drop_in\n"
        "p = ('wmt17', 'en-de')\n"
        f"print(json.dumps([{calls.format('rapidbleu', 'drop_in')}, "
        f"{calls.format('sacrebleu', 'sacrebleu')}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env={**env(), "SACREBLEU": str(cache)}
    )
    assert done.returncode == 0, done.stderr.decode()
    ours_, theirs = json.loads(done.stdout)
    assert ours_ == theirs
    assert ours_[0] == [str(cache / "wmt17" / "wmt17.en-de.ref")]


# --- downloads: a local server, and no network ------------------------------------------------


@pytest.fixture
def server() -> Iterator[str]:
    """Serves the fixture archive at http://127.0.0.1:PORT/test.tgz (this test only)."""
    data = testset_fixture.archive()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path != "/test.tgz":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/test.tgz"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _redirect(url: str) -> str:
    """Points sacreBLEU's wmt17 entry at ``url`` (no checksum: the archive is our fixture)."""
    return (
        "from sacrebleu.dataset import DATASETS\n"
        f"DATASETS['wmt17'].data = [{url!r}]\nDATASETS['wmt17'].md5 = None\n"
    )


def test_download_through_sacrebleus_registry(server: str, cache: Path, tmp_path: Path) -> None:
    args = ["-t", "wmt17", "-l", "en-de", "-i", SYSTEMS[0], "-f", "text"]
    done = _rapidbleu(args, WMT17, tmp_path, prelude=_redirect(server))
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "wmt17" / "raw" / "wmt17.test.tgz").is_file()
    assert (tmp_path / "wmt17" / "wmt17.en-de.ref").is_file()
    theirs = sacrebleu(args, WMT17, extra_env={"SACREBLEU": str(cache)})
    assert strip_version(done.stdout.decode()) == theirs.stdout.decode()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_no_network_says_what_to_download(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/test.tgz"
    done = _rapidbleu(["-t", "wmt17", "-l", "en-de", "-i", SYSTEMS[0]], WMT17, tmp_path,
                      prelude=_redirect(url))  # fmt: skip
    err = done.stderr.decode()
    assert done.returncode == 1 and done.stdout == b"", err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    tarball = tmp_path / "wmt17" / "raw" / "wmt17.test.tgz"
    for fragment in (
        "rapidbleu: error:",
        "could not be downloaded",
        f"download {url}",
        f"save it as {tarball}",
        f"tar -xzf {tarball} -C {tarball.parent}",
    ):
        assert fragment in err, (fragment, err)
    # Doing what the message says makes it work.
    tarball.write_bytes(testset_fixture.archive())
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(tarball.parent)], check=True)
    again = _rapidbleu(["-t", "wmt17", "-l", "en-de", "-i", SYSTEMS[0]], WMT17, tmp_path,
                       prelude=_redirect(url))  # fmt: skip
    assert again.returncode == 0, again.stderr.decode()


# --- errors ------------------------------------------------------------------------------------


def _bad(args: list[str], code: int, fragments: list[str], tmp_path: Path,
         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    rc, out, err = ours(args, tmp_path, capsys)
    assert rc == code and out == "" and len(err.strip().splitlines()) == 1, err
    for f in fragments:
        assert f in err, (f, err)


def test_missing_extra(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    for name in ("sacrebleu", "sacrebleu.dataset", "sacrebleu.utils"):
        monkeypatch.setitem(sys.modules, name, None)
    write_lines(tmp_path / "hyp", ["a"])
    fragments = ["-t/--test-set", "pip install sacrebleu", 'pip install ".[datasets]"']
    _bad(["-t", "wmt17", "-l", "en-de", "-i", "hyp"], 1, fragments, tmp_path, capsys)
    with pytest.raises(errors.MissingDependencyError, match="datasets"):
        rapidbleu.get_reference_files("wmt17", "en-de")


@pytest.mark.parametrize(
    ("args", "code", "fragments"),
    [
        (["-t", "wmt99", "-l", "en-de"], 1, ["unknown test set 'wmt99'", "--list"]),
        (["-t", "wmt17", "-l", "en-xx", "-i", "hyp"], 1, ["no language pair 'en-xx'", "en-de"]),
        (["-t", "wmt17", "-i", "hyp"], 2, ["needs a language pair (-l)"]),
        (["ref", "-t", "wmt17", "-l", "en-de"], 2, ["either a test set (-t) or reference files"]),
        (["ref", "-i", "hyp", "--origlang", "en"], 2, ["need a test set (-t)"]),
        (["--echo", "src"], 2, ["--echo needs a test set"]),
        (["-t", "wmt17", "-l", "en-de", "-d"], 2, ["-d/--detail", "not supported"]),
    ],
)
def test_usage_and_registry_errors(
    args: list[str], code: int, fragments: list[str], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    write_lines(tmp_path / "hyp", ["a"])
    write_lines(tmp_path / "ref", ["a"])
    _bad(args, code, fragments, tmp_path, capsys)


def test_api_errors() -> None:
    with pytest.raises(errors.DatasetError, match="unknown test set"):
        rapidbleu.get_source_file("wmt99", "en-de")
    with pytest.raises(errors.DatasetError, match="no language pair"):
        rapidbleu.get_reference_files("wmt17", "xx-yy")
    assert rapidbleu.get_langpairs_for_testset("wmt99") == []
    with pytest.raises(errors.DatasetError, match="not of the form src-trg"):
        rapidbleu.utils.get_available_testsets_for_langpair("en")


@pytest.mark.parametrize(
    "langpair", ["en-de", "de-en", "en-it", "en-fr", "ja-en", "xx-yy", "en-de-x"]
)
def test_testsets_for_langpair_equal_sacrebleus(langpair: str) -> None:
    import sacrebleu.utils

    ours_ = rapidbleu.utils.get_available_testsets_for_langpair(langpair)
    assert ours_ == sacrebleu.utils.get_available_testsets_for_langpair(langpair)
