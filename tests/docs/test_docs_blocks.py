"""The code blocks of README.md and of every page of the documentation site run as written.

Each page is a test case (``README.md``, ``docs/**/*.md``):

- ``python`` blocks run in order, in one fresh interpreter per page (like a notebook), in a
  temporary copy of ``examples/`` and ``tests/fixtures/``, with sacreBLEU's cache
  (``$SACREBLEU``) filled with the offline WMT17 fixture (``testset_fixture``) and evaluate
  offline. A block of ``>>>`` examples runs as a doctest: its outputs are checked.
- ``sh`` (or ``bash``) blocks: every ``rapidbleu`` / ``python -m rapidbleu...`` command (with its
  pipes, redirections and leading ``VAR=value`` settings; ``cd`` is followed) runs with the
  installed command and must exit 0 without a traceback. The installation, build, benchmark,
  profiling, device-check and documentation-server commands, and other programs' (verl's) commands
  (:data:`NOT_RUN`) are not run here: they are what
  ``scripts/test.sh`` and CI run, or take minutes. Any other line fails the test, so a new
  kind of command has to be placed on one side or the other.
- ``ipython`` blocks run in IPython.
- ``text`` blocks and blocks without a language show output; every other language fails.
- A block right after ``<!-- shown, not run: REASON -->`` is not run (a program that downloads
  and trains a model); the reason is on the page's source.
- In README.md and the getting-started page, the first command's output is the block after it.

Paths named in backticks exist, and no page refers to files outside the repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import testset_fixture

import rapidbleu

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
IDS = [str(p.relative_to(ROOT)) for p in PAGES]
#: A fenced block, indented or not (inside a list item): (indent, language, code).
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```[ \t]*$", flags=re.M | re.S)
SHELL = ("sh", "bash")
OUTPUT = ("", "text")
#: Commands of ``sh`` blocks that are shown, not run (installation, builds, benchmarks, ...).
NOT_RUN = (
    "pip",
    "maturin",
    "python3 -m venv",
    "bash scripts/test.sh",
    ".venv/bin/pip",
    ".venv/bin/mkdocs",
    "mkdocs",
    ". .venv/bin/activate",
    "PATH=",
    "cargo",
    "CARGO_PROFILE_RELEASE_DEBUG=",
    "valgrind",
    "callgrind_annotate",
    "target/release/",
    "python benchmarks/",
    ".venv/bin/python benchmarks/",
    "nice -n 10 .venv/bin/python benchmarks/",
    "apt-get",
    "python scripts/check_gpu.py",
    "python -m verl.",
)
RUN = re.compile(r"(?:[A-Z_]+=\S+ )*(?:rapidbleu|python -m rapidbleu|paste .*\| rapidbleu)\b")


#: A block shown, not run, with the reason right before it (a program that trains a model).
SHOWN = re.compile(
    r"^<!-- shown, not run: [^>]{10,} -->\n+( *)```\w*\n.*?^\1```[ \t]*$", flags=re.M | re.S
)


def blocks(page: Path) -> list[tuple[str, str]]:
    """``(language, code)`` of each fenced block of ``page``, dedented (not :data:`SHOWN` ones)."""
    text = SHOWN.sub("", page.read_text("utf-8"))
    return [(lang, textwrap.dedent(code)) for _, lang, code in FENCE.findall(text)]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "examples", work / "examples")
    shutil.copytree(ROOT / "tests" / "fixtures", work / "tests" / "fixtures")
    testset_fixture.populate(work / "sacrebleu-cache")
    return work


def _env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    for var in (
        "SACREBLEU_FORMAT",
        "NO_COLOR",
        "RAPIDBLEU_ACCELERATE",
        "RAPIDBLEU_ACCELERATE_REPORT",
    ):
        env.pop(var, None)
    bindir = str(Path(sys.executable).parent)
    env.update(
        PATH=bindir + os.pathsep + env.get("PATH", ""),
        SACREBLEU=str(work / "sacrebleu-cache"),
        HF_HOME=str(work / "hf"),
        HF_EVALUATE_OFFLINE="1",
        PYTHONIOENCODING="utf-8",
    )
    return env


def test_every_page_is_found() -> None:
    names = {p.name for p in PAGES}
    assert {"README.md", "index.md", "getting-started.md", "cli.md", "metrics.md"} <= names
    languages = {lang for page in PAGES for lang, _ in blocks(page)}
    assert languages <= {"python", "ipython", *SHELL, *OUTPUT}, languages


#: The script one page's Python blocks run in: plain blocks are executed, ``>>>`` blocks are
#: doctests, all in one namespace; a failure exits with the block's number.
_RUNNER = """
import doctest, sys, traceback, warnings
blocks = {blocks!r}
ns = {{"__name__": "__main__"}}
for i, code in enumerate(blocks, 1):
    try:
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, ns, f"block {{i}}", None, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                runner.run(test, clear_globs=False)
            if runner.failures:
                raise SystemExit(i)
        else:
            exec(compile(code, f"{{sys.argv[1]}} python block {{i}}", "exec"), ns)
    except SystemExit:
        raise
    except BaseException:
        traceback.print_exc()
        raise SystemExit(i)
"""


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_python_blocks_run(page: Path, workdir: Path) -> None:
    code = [c.replace("\n```", "\n\n```") for lang, c in blocks(page) if lang == "python"]
    if not code:
        return
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER.format(blocks=code), page.name],
        cwd=workdir,
        env=_env(workdir),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (
        f"{page.name}: python block {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    )


def _commands(page: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """(cwd, command) to run, and the install/build commands that are not run."""
    run, skipped = [], []
    for lang, code in blocks(page):
        if lang not in SHELL:
            continue
        cwd = "."
        for raw in code.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", raw).strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("cd "):
                cwd = line[3:].strip()
                continue
            for part in line.split(" && "):
                part = re.sub(r"^\.venv/bin/(rapidbleu|python) ", r"\1 ", part)
                if RUN.match(part):
                    run.append((cwd, part))
                elif part.startswith(NOT_RUN) or re.match(r"/tmp/build/bin/", part):
                    skipped.append(part)
                else:
                    raise AssertionError(f"{page.name}: sh line neither run nor known: {part!r}")
    return run, skipped


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_shell_commands_run(page: Path, workdir: Path) -> None:
    run, _ = _commands(page)
    for cwd, cmd in run:
        done = subprocess.run(
            ["bash", "-c", cmd.replace("python -m", f"{sys.executable} -m")],
            cwd=workdir / cwd,
            env=_env(workdir),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{page.name}: {cmd!r} in {cwd}: {done.stderr}"
        assert "Traceback" not in done.stderr, f"{page.name}: {cmd!r}: {done.stderr}"


def test_commands_are_many() -> None:
    """The pages hold the command's recipes (a parser that found none would pass silently)."""
    run = [c for page in PAGES for c in _commands(page)[0]]
    skipped = [c for page in PAGES for c in _commands(page)[1]]
    assert len(run) >= 30 and len(skipped) >= 5
    readme = [c for _, c in _commands(ROOT / "README.md")[0]]
    assert len(readme) >= 4


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_ipython_blocks_run(page: Path, workdir: Path) -> None:
    for lang, code in blocks(page):
        if lang != "ipython":
            continue
        done = subprocess.run(
            [sys.executable, "-m", "IPython", "--no-banner", "--quick", "-c", code],
            cwd=workdir,
            env=_env(workdir),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0 and "Error" not in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["README.md", "docs/getting-started.md"])
def test_first_command_prints_what_the_page_says(name: str, workdir: Path) -> None:
    text = (ROOT / name).read_text("utf-8")
    first = text.index("```sh")
    expected = re.search(r"prints:\n\n```(?:text)?\n(.*?)\n```", text[first:], flags=re.S)
    assert expected is not None
    done = subprocess.run(
        ["rapidbleu", "examples/ref.en", "examples/ref2.en", "-i", "examples/hyp.en", "-f", "text"],
        cwd=workdir,
        env=_env(workdir),
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == expected.group(1).replace(
        "rapidbleu.0.1.0", f"rapidbleu.{rapidbleu.__version__}"
    )


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_paths_exist_and_nothing_outside_the_repo(page: Path) -> None:
    text = page.read_text("utf-8")
    for outside in ("../shared", "shared/data", "shared/reference"):
        assert outside not in text, outside
    paths = re.findall(
        r"`((?:crates|python|tests|docs|benchmarks|scripts|examples)/[^`\s*<]+)`", text
    )
    # A pytest or Rust test id names its file; design notes (docs/notes/) are dated records
    # of the files of their day.
    missing = [p for p in paths if not (ROOT / p.split("::")[0]).exists()]
    assert not missing or page.parent.name == "notes", missing
    # Relative links stay inside the repository (and, from the site, inside docs/).
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if re.match(r"[a-z]+:", target):
            continue
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), target
        assert resolved.exists(), target


def test_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 150


def test_blocks_are_dedented() -> None:
    for page in PAGES:
        for _, code in blocks(page):
            assert textwrap.dedent(code) == code
