"""Smoke test of an installed rapidbleu: the one check every built wheel passes on its platform.

Run with the interpreter the wheel is installed into, beside sacreBLEU 2.6.0, from anywhere but
``python/`` (it refuses a rapidbleu imported from the source tree)::

    python -m pip install rapidbleu-*.whl sacrebleu==2.6.0
    python scripts/smoke_wheel.py

Checks, with ``==``: BLEU, chrF++ and TER of the example files (and sentence BLEU of the Chinese
example with ``tokenize="zh"``) against sacreBLEU's, signatures included; the ``rapidbleu``
command's output against ``sacrebleu``'s on the same files; that the accelerator mode's ``.pth``
file was installed and a child interpreter given ``RAPIDBLEU_ACCELERATE=1`` scores through
rapidbleu. Used by .github/workflows/release.yml (every wheel, every platform),
scripts/check_release.sh (the wheel built from the sdist) and scripts/test_pythons.sh (each
supported CPython). Pure standard library besides the two packages, so that it runs on Windows
and in Alpine as it does here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF, TER

import rapidbleu
from rapidbleu.metrics import CHRF as OurCHRF
from rapidbleu.metrics import TER as OurTER

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TAG = f"+rapidbleu.{rapidbleu.__version__}"


def fail(what: str, ours: object, theirs: object) -> None:
    sys.exit(f"smoke_wheel: {what} differs\n  rapidbleu: {ours!r}\n  sacreBLEU: {theirs!r}")


def same(what: str, ours: object, theirs: object) -> None:
    """Scores and their printed form, the version field aside (it names rapidbleu)."""
    if getattr(ours, "score", None) != getattr(theirs, "score", None):
        fail(f"{what} score", getattr(ours, "score", None), getattr(theirs, "score", None))
    if str(ours).replace(TAG, "") != str(theirs):
        fail(what, str(ours), str(theirs))
    print(f"ok  {what}: {theirs}")


def run(*argv: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", env=env)
    if done.returncode != 0:
        sys.exit(f"smoke_wheel: {argv} exited {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


def main() -> None:
    where = Path(rapidbleu.__file__).resolve()
    if (Path(__file__).resolve().parent.parent / "python") in where.parents:
        sys.exit(f"smoke_wheel: rapidbleu comes from the source tree ({where}), not a wheel")
    python = sys.version.split()[0]
    print(f"rapidbleu {rapidbleu.__version__} from {where.parent} on Python {python}")
    if sacrebleu.__version__ != "2.6.0":
        sys.exit(f"smoke_wheel: sacreBLEU 2.6.0 is the oracle, found {sacrebleu.__version__}")

    with tempfile.TemporaryDirectory() as tmp:
        # The example files rewritten with "\n" endings: a Windows checkout may have "\r\n".
        files = {}
        for name in ("hyp.en", "ref.en", "ref2.en", "hyp.zh", "ref.zh"):
            lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
            files[name] = lines
            Path(tmp, name).write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        hyps, refs = files["hyp.en"], [files["ref.en"], files["ref2.en"]]

        same("corpus BLEU", rapidbleu.corpus_bleu(hyps, refs), sacrebleu.corpus_bleu(hyps, refs))
        ours_chrf = OurCHRF(word_order=2)
        theirs_chrf = CHRF(word_order=2)
        same("chrF++", ours_chrf.corpus_score(hyps, refs), theirs_chrf.corpus_score(hyps, refs))
        if str(ours_chrf.get_signature()).replace(TAG, "") != str(theirs_chrf.get_signature()):
            fail("chrF++ signature", ours_chrf.get_signature(), theirs_chrf.get_signature())
        same("TER", OurTER().corpus_score(hyps, refs), TER().corpus_score(hyps, refs))
        for hyp, ref in zip(files["hyp.zh"], files["ref.zh"]):
            ours = rapidbleu.sentence_bleu(hyp, [ref], tokenize="zh")
            theirs = sacrebleu.sentence_bleu(hyp, [ref], tokenize="zh")
            same(f"sentence BLEU, zh {hyp[:6]}...", ours, theirs)

        args = [f"{tmp}/ref.en", f"{tmp}/ref2.en", "-i", f"{tmp}/hyp.en", "-m", "bleu", "chrf"]
        scripts = Path(sysconfig.get_path("scripts"))
        command = next(
            (str(p) for p in (scripts / "rapidbleu", scripts / "rapidbleu.exe") if p.exists()),
            None,
        )
        if command is None:
            sys.exit(f"smoke_wheel: no rapidbleu command in {scripts}")
        theirs_out = run(sys.executable, "-m", "sacrebleu", *args, "-f", "text")
        for argv in ([command], [sys.executable, "-m", "rapidbleu"]):
            ours_out = run(*argv, *args, "-f", "text").replace(TAG, "")
            if ours_out != theirs_out:
                fail(f"{argv[-1]} command's output", ours_out, theirs_out)
        print(f"ok  the command, as `sacrebleu {' '.join(args)} -f text`:\n{theirs_out}", end="")

    pth = Path(sysconfig.get_path("purelib")) / "rapidbleu-accelerate.pth"
    if not pth.is_file():
        sys.exit(f"smoke_wheel: {pth} is missing (the wheel's data directory)")
    child = "import sacrebleu; print(sacrebleu.__version__)"
    env = {**os.environ, "RAPIDBLEU_ACCELERATE": "1"}
    version = run(sys.executable, "-c", child, env=env).strip()
    if version != f"2.6.0{TAG}":
        fail("sacrebleu in a child with RAPIDBLEU_ACCELERATE=1", version, f"2.6.0{TAG}")
    print(f"ok  {pth.name}: a child interpreter in accelerator mode imports sacrebleu {version}")
    print("smoke_wheel: all checks passed")


if __name__ == "__main__":
    main()
