"""evaluate's "rouge" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("rouge"))``.
"""

from rapidbleu.evaluate import hub

Rouge = hub.metric_class("rouge")
