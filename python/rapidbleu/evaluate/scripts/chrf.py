"""evaluate's "chrf" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("chrf"))``.
"""

from rapidbleu.evaluate import hub

Chrf = hub.metric_class("chrf")
