"""README.md's code blocks run as written, and its paths exist.

- ``python`` blocks run in order, in one fresh interpreter (like a notebook), in a temporary
  copy of ``examples/`` and ``tests/fixtures/``, with sacreBLEU's cache (``$SACREBLEU``) filled
  with the offline WMT17 fixture (``testset_fixture``) and evaluate offline.
- ``sh`` blocks: every ``rapidbleu`` / ``python -m rapidbleu`` command (with its pipes and
  redirections; ``cd`` is followed) runs with the installed command and must exit 0. The
  installation and build commands (``pip``, ``maturin``, ``python3 -m venv``,
  ``bash scripts/test.sh``) are not run here: they are what ``scripts/test.sh`` and CI run.
- The first command's output is the text block that follows it.
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

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
BLOCKS = re.findall(r"^```(\w*)\n(.*?)^```", README, flags=re.M | re.S)
NOT_RUN = ("pip", "maturin", "python3 -m venv", "bash scripts/test.sh", ".venv/bin/pip")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", work / "examples")
    shutil.copytree(ROOT / "tests" / "fixtures", work / "tests" / "fixtures")
    testset_fixture.populate(work / "sacrebleu-cache")
    return work


def _env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("SACREBLEU_FORMAT", "NO_COLOR"):
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


def test_python_blocks_run(workdir: Path) -> None:
    blocks = [code for lang, code in BLOCKS if lang == "python"]
    assert len(blocks) >= 8
    script = ["import traceback", "ns = {}"]
    for i, code in enumerate(blocks):
        script.append(
            f"try:\n    exec(compile({code!r}, 'README python block {i + 1}', 'exec'), ns)\n"
            f"except Exception:\n    traceback.print_exc()\n    raise SystemExit({i + 1})"
        )
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(script)],
        cwd=workdir,
        env=_env(workdir),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"block {done.returncode}:\n{done.stderr[-3000:]}"


def _commands() -> tuple[list[tuple[str, str]], list[str]]:
    """(cwd, command) to run, and the install/build commands that are not run."""
    run, skipped = [], []
    for lang, code in BLOCKS:
        if lang != "sh":
            continue
        cwd = "."
        for raw in code.splitlines():
            line = re.sub(r"\s+#.*$", "", raw).strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("cd "):
                cwd = line[3:].strip()
                continue
            for part in line.split(" && "):
                part = part.replace(".venv/bin/rapidbleu", "rapidbleu")
                if re.match(r"(rapidbleu|python -m rapidbleu|paste .*\| rapidbleu)\b", part):
                    run.append((cwd, part))
                elif part.startswith(NOT_RUN) or re.match(r"/tmp/build/bin/", part):
                    skipped.append(part)
                else:
                    raise AssertionError(f"README sh line neither run nor known: {part!r}")
    return run, skipped


def test_shell_commands_run(workdir: Path) -> None:
    run, skipped = _commands()
    assert len(run) >= 20 and skipped
    for cwd, cmd in run:
        done = subprocess.run(
            ["bash", "-c", cmd.replace("python -m", f"{sys.executable} -m")],
            cwd=workdir / cwd,
            env=_env(workdir),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{cmd!r} in {cwd}: {done.stderr}"
        assert "Traceback" not in done.stderr


def test_first_command_prints_what_readme_says(workdir: Path) -> None:
    first = README.index("```sh")
    expected = re.search(r"prints:\n\n```\n(.*?)\n```", README[first:], flags=re.S)
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


def test_paths_exist_and_nothing_outside_the_repo() -> None:
    assert "../shared" not in README and "shared/data" not in README
    paths = re.findall(
        r"`((?:crates|python|tests|docs|benchmarks|scripts|examples)/[^`\s*]+)`", README
    )
    assert paths
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, missing


def test_blocks_are_dedented() -> None:
    for _, code in BLOCKS:
        assert textwrap.dedent(code) == code
