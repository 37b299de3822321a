"""Real clients of sacreBLEU, NLTK and evaluate, unchanged, with and without accelerator mode.

Each program in tests/accelerate/clients imports a client's own code and runs its metric
functions on real WMT22 en-de lines (see each program's notes):

- lm-evaluation-harness: ``lm_eval.api.metrics`` ``bleu``, ``chrf``, ``chrfpp``, ``ter`` and
  ``stderr_for_metric(...)(items)`` for ``bleu`` and ``chrf`` (its multiprocessing bootstrap);
- lighteval: ``CorpusLevelTranslationMetric`` for ``bleu``, ``chrf``, ``chrf++`` and ``ter``;
- HELM: ``compute_reference_metrics`` for ``bleu_1`` and ``bleu_4`` (NLTK ``sentence_bleu``);
- evaluate: ``evaluate.load(NAME).compute`` for its five MT metrics, loaded by name;
- mbrs: BLEU, chrF and TER ``pairwise_scores`` (its code path, as mbrs cannot be imported
  without torch: see mbrs_pairwise.py);
- mbrs itself (mbrs_metrics.py): ``MetricBLEU``, ``MetricChrF`` and ``MetricTER``'s batch
  methods, ``DecoderMBR`` and ``DecoderAggregateMBR``, results compared with their types.

Every program runs twice in a subprocess (with a timeout): plainly, and under
``python -m rapidbleu.accelerate`` with ``RAPIDBLEU_ACCELERATE_REPORT=FILE.json``. Its results
must be ``==``, and the report must show the client's calls on rapidbleu, none falling back.
The report holds the calls of the processes that entered the mode; the calls that
lm-evaluation-harness' bootstrap and mbrs make in forked workers are checked by the results.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

CLIENTS = Path(__file__).resolve().parent / "clients"
#: Seconds one run of a client program may take (the plain runs take a few seconds).
TIMEOUT = 600


@dataclass(frozen=True)
class Client:
    """A client program, its arguments here, and the accelerated calls its report must show."""

    program: str
    args: tuple[str, ...]
    calls: frozenset[str]
    #: Run as ``python -m PROGRAM`` (and ``python -m rapidbleu.accelerate -m PROGRAM``).
    as_module: bool = False
    #: Calls that must go to the real package (what rapidbleu refuses and sacreBLEU answers).
    fallbacks: frozenset[str] = frozenset()


CASES = {
    "lm-evaluation-harness": Client(
        "lm_eval_metrics",
        ("--n", "200", "--boot-n", "100", "--iters", "20"),
        frozenset({"sacrebleu.corpus_bleu", "sacrebleu.corpus_chrf", "sacrebleu.corpus_ter"}),
    ),
    "lighteval": Client(
        "lighteval_metrics",
        ("--n", "200"),
        frozenset({"sacrebleu.BLEU", "sacrebleu.CHRF", "sacrebleu.TER"}),
        # lighteval's chrF and TER give one reference "stream" per segment (lighteval#1112):
        # rapidbleu refuses the shape, sacreBLEU scores the first segments only, and the mode
        # hands the call to sacreBLEU so that the number is the one lighteval always reported.
        fallbacks=frozenset({"sacrebleu.CHRF.corpus_score", "sacrebleu.TER.corpus_score"}),
    ),
    "helm": Client(
        "helm_metrics",
        ("--n", "100"),
        frozenset({"nltk.translate.bleu_score.sentence_bleu"}),
        as_module=True,
    ),
    "evaluate": Client(
        "evaluate_metrics",
        ("--n", "200"),
        frozenset(
            f"evaluate.load({name!r}).compute"
            for name in ("sacrebleu", "bleu", "google_bleu", "chrf", "ter")
        ),
    ),
    "mbrs": Client(
        "mbrs_pairwise",
        ("--k", "24", "--chrf-k", "24", "--ter-k", "12"),
        # mbrs imports sacrebleu.metrics.bleu.BLEU (and chrf, ter): the mode reports each class
        # under the package's name.
        frozenset({"sacrebleu.BLEU", "sacrebleu.CHRF", "sacrebleu.TER"}),
    ),
    "mbrs-installed": Client(
        "mbrs_metrics",
        ("--k", "16", "--ter-k", "8"),
        frozenset(
            f"mbrs.metrics.{module}.{cls}.{method}"
            for module, cls in (
                ("bleu", "MetricBLEU"),
                ("chrf", "MetricChrF"),
                ("ter", "MetricTER"),
            )
            for method in ("scores", "pairwise_scores")
        ),
        # BLEU without effective_order: sacreBLEU logs a warning per sentence call, so mbrs runs.
        fallbacks=frozenset({"mbrs.metrics.bleu.MetricBLEU.scores"}),
    ),
}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    sys.path.insert(0, str(CLIENTS))
    try:
        import offline
    finally:
        sys.path.remove(str(CLIENTS))
    return offline.prepare(tmp_path_factory.mktemp("offline"))


def run(client: Client, env: dict[str, str], out: Path, report: Path | None) -> dict[str, Any]:
    """Runs ``client`` plainly (``report`` None) or in accelerator mode; returns its results."""
    program = ["-m", client.program] if client.as_module else [f"{client.program}.py"]
    mode = ["-m", "rapidbleu.accelerate"] if report is not None else []
    cmd = [sys.executable, *mode, *program, "--data", str(DATA), "--out", str(out), *client.args]
    run_env = dict(env)
    if report is not None:
        run_env["RAPIDBLEU_ACCELERATE_REPORT"] = str(report)
    proc = subprocess.run(
        cmd, cwd=CLIENTS, env=run_env, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert proc.returncode == 0, f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr[-4000:]}"
    results: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["results"]
    return results


@pytest.mark.parametrize("name", sorted(CASES))
def test_client_unchanged_in_accelerator_mode(
    name: str, env: dict[str, str], tmp_path: Path
) -> None:
    client = CASES[name]
    plain = run(client, env, tmp_path / "plain.json", None)
    report = tmp_path / "report.json"
    accelerated = run(client, env, tmp_path / "accelerated.json", report)

    assert plain.keys() == accelerated.keys()
    differ = [k for k in plain if plain[k] != accelerated[k]]
    assert not differ, f"{name}: the accelerated results differ in {differ}"

    rows = json.loads(report.read_text(encoding="utf-8"))["calls"]
    fell_back = {r["name"] for r in rows if r["where"] != "rapidbleu"}
    assert fell_back == client.fallbacks, f"{name}: calls fell back to the real package"
    on_rapidbleu = {r["name"] for r in rows if r["count"] > 0}
    assert client.calls <= on_rapidbleu, (
        f"{name}: not reported as run on rapidbleu: {sorted(client.calls - on_rapidbleu)}"
    )


#: The mbrs methods that mbrs_pairwise.py carries, and the calls in them that must be mbrs' own.
MBRS_METHODS = {"__init__", "_initialize_bleu", "_score_worker", "score", "pairwise_scores"}
MBRS_CALLS = {"BLEU", "CHRF", "TER", "ProcessPoolExecutor", "map", "sentence_score"}


def _mbrs_facts(classes: list[ast.ClassDef]) -> tuple[dict[str, str], set[str]]:
    """The Config defaults and the texts of the MBRS_CALLS calls in MBRS_METHODS of ``classes``."""
    defaults: dict[str, str] = {}
    calls: set[str] = set()
    for cls in classes:
        for node in cls.body:
            if isinstance(node, ast.ClassDef) and node.name == "Config":
                for field in node.body:
                    if isinstance(field, ast.AnnAssign) and field.value is not None:
                        defaults[ast.unparse(field.target)] = ast.unparse(field.value)
            elif isinstance(node, ast.FunctionDef) and node.name in MBRS_METHODS:
                for call in ast.walk(node):
                    if isinstance(call, ast.Call):
                        func = call.func
                        name = func.attr if isinstance(func, ast.Attribute) else ast.unparse(func)
                        if name in MBRS_CALLS:
                            calls.add(ast.unparse(call))
    return defaults, calls


@pytest.mark.parametrize(
    ("module", "cls"), [("bleu", "MetricBLEU"), ("chrf", "MetricChrF"), ("ter", "MetricTER")]
)
def test_mbrs_program_carries_mbrs_code_path(module: str, cls: str) -> None:
    # mbrs cannot be imported without torch (mbrs_pairwise.py): its source is read instead.
    spec = importlib.util.find_spec("mbrs")
    assert spec is not None and spec.submodule_search_locations, "mbrs is not installed"
    source = Path(next(iter(spec.submodule_search_locations))) / "metrics" / f"{module}.py"
    theirs = [
        n
        for n in ast.parse(source.read_text(encoding="utf-8")).body
        if isinstance(n, ast.ClassDef) and n.name == cls
    ]
    program = ast.parse((CLIENTS / "mbrs_pairwise.py").read_text(encoding="utf-8"))
    ours = [
        n
        for n in program.body
        if isinstance(n, ast.ClassDef) and n.name in (cls, "_MetricByMethod")
    ]
    if cls == "MetricBLEU":
        ours = [n for n in ours if n.name == cls]
    assert len(theirs) == 1
    assert _mbrs_facts(ours) == _mbrs_facts(theirs)


def test_evaluate_scripts_are_upstream_copies() -> None:
    # tests/upstream/evaluate/README.md: byte-for-byte copies, each with its git blob id.
    folder = Path(__file__).resolve().parents[1] / "upstream" / "evaluate"
    lines = (folder / "UPSTREAM").read_text(encoding="utf-8").split("\n")
    entries = [line.split(" ", 1) for line in lines if line]
    assert len(entries) == 9
    for blob, path in entries:
        data = (folder / path).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, path
