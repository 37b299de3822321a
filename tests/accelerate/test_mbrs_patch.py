"""mbrs' metric classes patched and unpatched in one process: install() after mbrs was imported.

tests/accelerate/test_clients.py runs mbrs' classes in a fresh process under the mode (the
import hook patches them). Here one process imports mbrs first, scores plainly (mbrs' process
pool over sacreBLEU's ``sentence_score``), then enters the mode with ``install()``: the same
instances must give ``==`` tensors of the same dtype and shape from rapidbleu; what rapidbleu
does not answer as mbrs does (a subclass with its own ``score``, empty or non-``str`` input)
must run mbrs' own method, exceptions included; ``uninstall()`` must give the classes back
their own methods. The same program then runs under ``python -m rapidbleu.accelerate`` (mbrs
imported in the mode). Both run in subprocesses (mbrs' pools fork; the mode changes
``sys.modules``).

Exceptions are compared by their builtin class: mbrs' own pool, given a non-``str`` segment,
pickles the metric to its workers, where the mode's sacreBLEU ``CHRF`` raises rapidbleu's
``InputTypeError`` (a ``TypeError``) for sacreBLEU's ``TypeError`` (issue 36, deliverable 2).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent / "clients"

PROGRAM = r"""
import json
import rapidbleu.accelerate as acc
from mbrs_light import load
from mbrs_pairwise import candidates
from _common import default_data

in_mode = acc.is_installed()  # run as python -m rapidbleu.accelerate: mbrs imported in the mode
m = load()
hyps = candidates(default_data(), 8) + ["", "ab\u00e9 \U0001F600 .", "x"]
metrics = [
    m.MetricBLEU(m.MetricBLEU.Config(num_workers=2)),
    m.MetricChrF(m.MetricChrF.Config(word_order=2, num_workers=2)),
    m.MetricTER(m.MetricTER.Config(num_workers=2)),
]

class MyChrF(m.MetricChrF):
    def score(self, hypothesis, reference, *_, **__):
        return float(len(hypothesis) - len(reference))

def tensor(t):
    return [str(t.dtype), list(t.shape), t.tolist()]

def valid():
    return [tensor(call()) for metric in metrics for call in (
        lambda: metric.pairwise_scores(hyps, hyps[:5]),
        lambda: metric.scores(hyps, hyps[::-1]))]

def declined():
    mine = MyChrF(MyChrF.Config(num_workers=2))
    out = [tensor(mine.pairwise_scores(hyps, hyps))]
    out.append(tensor(mine.expected_scores_reference_aggregation(hyps, hyps)))
    for metric in metrics:
        for bad in (([], hyps), (hyps, []), ([1, 2], ["a", "b"])):
            try:
                out.append(tensor(metric.pairwise_scores(*bad)))
            except Exception as e:  # the builtin class: see the module's notes
                out.append(next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"))
    return out

if in_mode:
    print(json.dumps(valid() + declined()))
else:
    plain = valid()
    declined_plain = declined()
    from rapidbleu.accelerate.profile import PROFILE
    PROFILE.enabled = True  # count the calls (as a reported run does), with no report
    acc.install()  # mbrs was imported first: install() patches its classes in place
    cls = type(metrics[0])
    assert hasattr(cls.pairwise_scores, "__rapidbleu_original__")
    assert valid() == plain
    where = {(r["name"], r["where"]) for r in PROFILE.rows()}
    assert ("mbrs.metrics.bleu.MetricBLEU.pairwise_scores", "rapidbleu") in where, where
    acc.uninstall()
    assert not hasattr(cls.pairwise_scores, "__rapidbleu_original__")
    assert not hasattr(cls.scores, "__rapidbleu_original__")
    print(json.dumps(plain + declined_plain))
"""


def _run(mode: list[str], script: Path) -> list[object]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(CLIENTS), *sys.path])}
    env.pop("RAPIDBLEU_ACCELERATE", None)
    proc = subprocess.run(
        [sys.executable, *mode, str(script)],
        cwd=CLIENTS,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    results: list[object] = json.loads(proc.stdout)
    return results


def test_mbrs_patched_after_import_and_in_the_mode(tmp_path: Path) -> None:
    script = tmp_path / "uses_mbrs.py"
    script.write_text(PROGRAM, encoding="utf-8")
    plain = _run([], script)
    accelerated = _run(["-m", "rapidbleu.accelerate"], script)
    assert len(plain) == 6 + 2 + 9
    assert accelerated == plain
