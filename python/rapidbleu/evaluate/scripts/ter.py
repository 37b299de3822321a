"""evaluate's "ter" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("ter"))``.
"""

from rapidbleu.evaluate import hub

Ter = hub.metric_class("ter")
